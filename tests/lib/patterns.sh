# SPDX-License-Identifier: GPL-2.0-only
# What a kernel log must not show, read by the host (tests/run, tests/lib/system.sh: a boot's
# console) and by the guest (tests/guest/run-cases: each case's part of the kernel log). POSIX sh.

# A line of a kernel bug. "BUG [^ ]+ \(" is SLUB's own report ("BUG kmalloc-64 (Tainted: ...):
# Poison overwritten"), which has no colon after BUG; "blocked for more than" the hung-task
# report. Not "hung_task": the console's command line has hung_task_panic=1. "deprecated
# workqueue": 7.x's notice of work queued on system_wq. "CFI failure at": kCFI's report of an
# indirect call of the wrong type (a WARN under CONFIG_CFI_PERMISSIVE, else an oops).
BAD_LOG='BUG:|BUG [^ ]+ \(|WARNING:|Oops|refcount_t:|list_add corruption|list_del corruption|blocked for more than|kmemleak:.*unreferenced|KASAN|UBSAN|CFI failure at|general protection|Call Trace|detected stall|Kernel panic|enqueued on deprecated workqueue'

# The allocator's reports of failures a "# fault-reports: yes" case injects (warn_alloc: a
# header line and a stack dump; 6.1's __register_sysctl_table, which dumps the stack when it
# cannot allocate a directory, -ENOMEM): an awk program that drops their "Call Trace" line;
# every other line is still checked.
ALLOC_REPORTS='/vmalloc error: |page allocation failure: |sysctl could not get directory: .* -12$/ { r = 1 } r && /Call Trace:/ { next } /<\/TASK>/ { r = 0 } { print }'

# case_header_of FIELD FILE: the value of the first "# FIELD:" line of FILE's header (its
# leading comment lines), read with shell builtins only (under TCG every fork costs milliseconds)
case_header_of() {
	while IFS= read -r _hl; do
		case $_hl in
		"# $1:"*) _hl=${_hl#"# $1:"}; echo "${_hl# }"; return 0 ;;
		"#"*) ;;
		*) return 0 ;;
		esac
	done <"$2"
}
