import CLinux
import ProspectsCLI

// Image buffers of a megabyte or more (file bytes, gray pixels, zbar's and the recovery passes' copies) come and
// go with every photo. By default glibc raises its mmap threshold to the largest block freed, after which such
// blocks stay in each thread's heap: peak RSS on 1280×960 frames went from 37 to 42 MB with two workers. A fixed
// 256 KiB threshold hands them back to the kernel on free.
_ = prospects_set_mmap_threshold(256 << 10)

// Everything lives in ProspectsCLI so that it can be tested; this file only hands over argv and exits.
ProspectsCommand.main()
