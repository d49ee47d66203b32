import CLinux
import ProspectsCLI

// Image buffers of a megabyte or more (file bytes, gray pixels, zbar's and the recovery passes' copies) come and
// go with every photo. By default glibc raises its mmap threshold to the largest block freed, after which such
// blocks stay in each thread's heap and peak memory grows with the workers. A fixed 256 KiB threshold hands them
// back to the kernel on free (measured in docs/performance.md, "Measurements behind code choices").
_ = prospects_set_mmap_threshold(256 << 10)
// Fixing the mmap threshold also freezes glibc's trim threshold at 128 KiB. SQLite frees a little more than that at
// the top of the heap after each statement of a bulk write (its statement journal), so the heap shrank and grew
// again with every row. 1 MiB of slack ends that, at no cost to decode's peak memory.
_ = prospects_set_trim_threshold(1 << 20)

// Everything lives in ProspectsCLI so that it can be tested; this file only hands over argv and exits.
ProspectsCommand.main()
