package fsil.data.split;

/**
 * The class-order shuffle of UCIR and PyCIL, reproduced exactly: {@code np.random.seed(seed)} followed by
 * {@code np.random.permutation(n)} with NumPy's legacy {@code RandomState}.
 * <p>
 * That is MT19937 (Matsumoto and Nishimura 1998) seeded with the reference {@code init_genrand} recurrence for a
 * 32-bit integer seed; a Fisher-Yates shuffle from the last position down, where the swap partner for position i
 * is drawn uniformly from 0..i by masked rejection sampling on 32-bit outputs (mask = smallest 2^k-1 >= i). This
 * is written from the published algorithm, not copied; the test checks the first entries of the seed-1993
 * permutation of 100 classes (68, 56, 78, 8, 23, 84, 90, 65) that UCIR and PyCIL both use.
 */
public final class NumpyLegacyRandom {
    private static final int N = 624;
    private static final int M = 397;
    private final int[] mt = new int[N];
    private int index;

    /** {@code np.random.seed(seed)}, seed in 0..2^32-1. */
    public NumpyLegacyRandom(long seed) {
        if (seed < 0 || seed > 0xFFFFFFFFL) {
            throw new IllegalArgumentException("numpy legacy seeds must be in 0..2^32-1, got " + seed);
        }
        mt[0] = (int) seed;
        for (int i = 1; i < N; i++) {
            int prev = mt[i - 1];
            mt[i] = 1812433253 * (prev ^ (prev >>> 30)) + i;
        }
        index = N;
    }

    /** The next 32-bit output (as an unsigned value in a long). */
    public long nextUint32() {
        if (index >= N) {
            twist();
        }
        int y = mt[index++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9D2C5680;
        y ^= (y << 15) & 0xEFC60000;
        y ^= y >>> 18;
        return y & 0xFFFFFFFFL;
    }

    private void twist() {
        for (int i = 0; i < N; i++) {
            int y = (mt[i] & 0x80000000) | (mt[(i + 1) % N] & 0x7FFFFFFF);
            int next = mt[(i + M) % N] ^ (y >>> 1);
            if ((y & 1) != 0) {
                next ^= 0x9908B0DF;
            }
            mt[i] = next;
        }
        index = 0;
    }

    /** Uniform integer in 0..max (inclusive), NumPy's legacy {@code random_interval} for max < 2^32. */
    public long interval(long max) {
        if (max == 0) {
            return 0;
        }
        long mask = max;
        mask |= mask >>> 1;
        mask |= mask >>> 2;
        mask |= mask >>> 4;
        mask |= mask >>> 8;
        mask |= mask >>> 16;
        long value;
        do {
            value = nextUint32() & mask;
        } while (value > max);
        return value;
    }

    /** {@code np.random.permutation(n)}: a shuffled 0..n-1. */
    public int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = (int) interval(i);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    /** The class order UCIR/PyCIL use for {@code n} classes and {@code seed}. */
    public static int[] classOrder(int n, long seed) {
        return new NumpyLegacyRandom(seed).permutation(n);
    }
}
