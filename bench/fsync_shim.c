/* An LD_PRELOAD shim around fsync(2) and fdatasync(2): it counts every call of the process and can add the latency
 * of a slower disk (an SD card) to each one.
 *
 * Environment (read at the first call):
 *   BANQUIER_FSYNC_MEDIAN_MS  the median latency added to each call, in milliseconds (default 0: none added)
 *   BANQUIER_FSYNC_P99_MS     its 99th percentile (default: the median); the latency is log-normal between them
 *   BANQUIER_FSYNC_SEED       the seed of its random numbers (default 1)
 * Exported for the caller (ctypes.CDLL(None)): banquier_syncs() -> the calls so far; banquier_sync_ns() -> the
 * latency added so far, in nanoseconds; banquier_syncs_of(tid) -> the calls made by the thread ``tid`` (its Linux
 * thread id, Python's threading.get_native_id(); the first 256 threads that flush are counted apart);
 * banquier_real_ns() and banquier_real_ns_of(tid) -> the time the real calls took (the disk's own part, latency
 * added not included), in nanoseconds, of the process and of one thread.
 * Built by bench/bench_device.py and tests/terminal/test_one_flush_per_tap.py with the PC's C compiler: cc -shared -fPIC -O2 -o fsync_shim.so fsync_shim.c -ldl -lm
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

static long long calls;
static long long added_ns;
static int ready;
static double mu, sigma;
static uint64_t state = 1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
#define THREADS 256
static long tids[THREADS];
static long long tid_calls[THREADS];
static long long tid_real_ns[THREADS];  /* the time the real calls took, per thread (the disk's own latency) */
static long long real_ns;

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static double env_ms(const char *name, double fallback) {
    const char *v = getenv(name);
    return (v && *v) ? atof(v) : fallback;
}

static void setup(void) {
    double median = env_ms("BANQUIER_FSYNC_MEDIAN_MS", 0.0);
    double p99 = env_ms("BANQUIER_FSYNC_P99_MS", median);
    const char *seed = getenv("BANQUIER_FSYNC_SEED");
    state = (seed && *seed) ? strtoull(seed, NULL, 10) | 1 : 1;
    mu = median > 0 ? log(median) : -INFINITY;
    sigma = (median > 0 && p99 > median) ? log(p99 / median) / 2.3263478740408408 : 0.0;
    real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    ready = 1;
}

static double uniform(void) {  /* xorshift64*, in (0, 1) */
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return ((state * 2685821657736338717ULL >> 11) + 0.5) / 9007199254740992.0;
}

static void wait_like_a_card(long long took_ns) {
    double ms = 0.0;
    pthread_mutex_lock(&lock);
    if (!ready) setup();
    calls++;
    real_ns += took_ns;
    {
        long tid = (long)syscall(SYS_gettid);
        for (int i = 0; i < THREADS; i++) {
            if (tids[i] == tid || tids[i] == 0) { tids[i] = tid; tid_calls[i]++; tid_real_ns[i] += took_ns; break; }
        }
    }
    if (mu > -INFINITY) {
        double z = sqrt(-2.0 * log(uniform())) * cos(6.283185307179586 * uniform());
        ms = exp(mu + sigma * z);
        added_ns += (long long)(ms * 1e6);
    }
    pthread_mutex_unlock(&lock);
    if (ms > 0) {
        struct timespec t = {(time_t)(ms / 1000), (long)(fmod(ms, 1000.0) * 1e6)};
        while (nanosleep(&t, &t) != 0) {}
    }
}

int fsync(int fd) {
    int rc;
    if (!ready) { pthread_mutex_lock(&lock); if (!ready) setup(); pthread_mutex_unlock(&lock); }
    long long t0 = now_ns();
    rc = real_fsync(fd);
    wait_like_a_card(now_ns() - t0);
    return rc;
}

int fdatasync(int fd) {
    int rc;
    if (!ready) { pthread_mutex_lock(&lock); if (!ready) setup(); pthread_mutex_unlock(&lock); }
    long long t0 = now_ns();
    rc = real_fdatasync(fd);
    wait_like_a_card(now_ns() - t0);
    return rc;
}

long long banquier_syncs(void) { return calls; }
long long banquier_sync_ns(void) { return added_ns; }
long long banquier_real_ns(void) { return real_ns; }
long long banquier_real_ns_of(long tid) {
    long long n = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < THREADS && tids[i]; i++) if (tids[i] == tid) { n = tid_real_ns[i]; break; }
    pthread_mutex_unlock(&lock);
    return n;
}
long long banquier_syncs_of(long tid) {
    long long n = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < THREADS && tids[i]; i++) if (tids[i] == tid) { n = tid_calls[i]; break; }
    pthread_mutex_unlock(&lock);
    return n;
}
