package fsil.core.random;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Seeded random streams. Every independent piece of work (a protocol unit, a tree of a forest, a chain of a
 * sampler) gets its own stream whose seed is derived from a parent seed and the piece's index with a strong
 * 64-bit mix, so numbers never depend on scheduling or thread count.
 */
public final class RandomStreams {
    /** The generator behind every stream: fast, 128-bit state, good statistical quality. */
    public static final RandomSource SOURCE = RandomSource.XO_RO_SHI_RO_128_PP;

    private RandomStreams() {
    }

    /** A generator seeded with {@code seed}. */
    public static UniformRandomProvider create(long seed) {
        return SOURCE.create(new long[]{mix(seed), mix(seed ^ 0x9E3779B97F4A7C15L)});
    }

    /** Seed of child {@code index} of {@code parent} (e.g. unit i of a run, tree t of a forest). */
    public static long derive(long parent, long index) {
        return mix(parent * 0x9E3779B97F4A7C15L + mix(index + 0x632BE59BD9B4E019L));
    }

    /** Seed of a named child stream (e.g. "episodes", "init") of {@code parent}. */
    public static long derive(long parent, String purpose) {
        long h = 1125899906842597L;
        for (int i = 0; i < purpose.length(); i++) {
            h = 31 * h + purpose.charAt(i);
        }
        return derive(parent, h);
    }

    /** Generator for child {@code index} of {@code parent}. */
    public static UniformRandomProvider child(long parent, long index) {
        return create(derive(parent, index));
    }

    /** SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mix. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Fisher-Yates shuffle of {@code a} in place. */
    public static void shuffle(int[] a, UniformRandomProvider rng) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /** A random permutation of 0..n-1. */
    public static int[] permutation(int n, UniformRandomProvider rng) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        shuffle(p, rng);
        return p;
    }
}
