// Loaded with LD_PRELOAD under valgrind by Scripts/profile.sh for the explorer's workload.
// Valgrind 3.19 writes into the signal mask a program passes to sigsuspend, and libdispatch
// passes one in read-only memory, so the run dies with SIGSEGV. This sigsuspend hands the
// kernel a copy of the mask instead; the program sees no difference.
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, sizeof(unsigned long));
}
