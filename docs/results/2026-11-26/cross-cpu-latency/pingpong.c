// Cross-CPU round trips: a thread on CPU 0 and one on CPU 1 hand one cache line back and forth; prints, for every
// 500-ms window, the monotonic time and the mean round trip in ns.  gcc -O2 -pthread pingpong.c -o pingpong
// ./pingpong WINDOWS  (both CPUs busy while it runs; nothing else should be)
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(64) atomic_long flag;
static atomic_int stop;

static void pin(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

/* CPU 1: answers every odd value with the next even one. */
static void *pong(void *unused) {
    pin(1);
    while (!atomic_load(&stop)) {
        long v = atomic_load_explicit(&flag, memory_order_acquire);
        if (v & 1) {
            atomic_store_explicit(&flag, v + 1, memory_order_release);
        }
    }
    return unused;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int windows = argc > 1 ? atoi(argv[1]) : 20;
    pthread_t t;
    pin(0);
    pthread_create(&t, 0, pong, 0);
    for (int w = 0; w < windows; w++) {
        double end = now() + 0.5;
        long trips = 0;
        while (now() < end) {
            for (int k = 0; k < 1000; k++) { /* CPU 0: sends an odd value, waits for the answer */
                long x = atomic_load(&flag) + 1;
                atomic_store_explicit(&flag, x, memory_order_release);
                while (atomic_load_explicit(&flag, memory_order_acquire) == x) {
                }
            }
            trips += 1000;
        }
        printf("%.3f %.1f\n", now(), 0.5e9 / trips);
        fflush(stdout);
    }
    atomic_store(&stop, 1);
    pthread_join(t, 0);
    return 0;
}
