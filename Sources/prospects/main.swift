import CLinux
import ProspectsCLI

// Image buffers of a megabyte or more (file bytes, gray pixels, zbar's and the recovery passes' copies) come and
// go with every photo. By default glibc raises its mmap threshold to the largest block freed, after which such
// blocks stay in each thread's heap: peak RSS on 1280×960 frames went from 37 to 42 MB with two workers. A fixed
// 256 KiB threshold hands them back to the kernel on free.
_ = prospects_set_mmap_threshold(256 << 10)
// Fixing the mmap threshold also freezes glibc's trim threshold at 128 KiB. SQLite frees about 148 KiB at the top of
// the heap after each statement of a bulk write (its statement journal), so the heap shrank and grew again with
// every row: 30,000 brk calls and a fifth of a 100,000-row import's time. 1 MiB of slack ends that; decode's peak
// RSS did not move (37.1 MB on the camera corpus either way).
_ = prospects_set_trim_threshold(1 << 20)

// Everything lives in ProspectsCLI so that it can be tested; this file only hands over argv and exits.
ProspectsCommand.main()
