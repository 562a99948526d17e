package fsil.methods.ncmforest;

import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Simulate many insertions and compare each class's inclusion frequency with the policy's law.
 * Start: m0 = 9 classes, K a uniform 3-subset (sqrt rule); then insert classes 9..24 one at a time with the pool
 * equal to all classes so far. With R = 10^5 runs (1.6 10^6 insertions) a frequency has standard deviation at
 * most 0.0016; the tolerance is 0.008 (5 sigma).
 */
class ReservoirPolicyTest {
    static final int M0 = 9;
    static final int M = 25;
    static final int RUNS = 100_000;
    static final double TOL = 0.008;

    /** Inclusion frequency of each class and the mean final |K|. */
    private static double[] simulate(ReservoirPolicy policy, long seed) {
        UniformRandomProvider rng = RandomStreams.create(seed);
        double[] freq = new double[M + 1];
        for (int r = 0; r < RUNS; r++) {
            int[] perm = RandomStreams.permutation(M0, rng);
            int[] k = Arrays.copyOf(perm, SubsetSizeRule.SQRT.size(M0, 0));
            for (int c = M0; c < M; c++) {
                boolean[] in = new boolean[c];
                for (int v : k) {
                    in[v] = true;
                }
                int[] absent = new int[c - k.length];
                int a = 0;
                for (int v = 0; v < c; v++) {
                    if (!in[v]) {
                        absent[a++] = v;
                    }
                }
                k = policy.insert(k, c, c, absent, SubsetSizeRule.SQRT.size(c + 1, 0), rng);
            }
            for (int v : k) {
                freq[v]++;
            }
            freq[M] += k.length;
        }
        for (int i = 0; i <= M; i++) {
            freq[i] /= RUNS;
        }
        return freq;
    }

    @Test
    void algorithmRKeepsAUniformSubsetOfFixedSize() {
        double[] f = simulate(ReservoirPolicy.ALGORITHM_R, 1);
        for (int c = 0; c < M; c++) {
            assertEquals(3.0 / M, f[c], TOL, "class " + c);
        }
        assertEquals(3.0, f[M], 1e-12, "size never changes");
    }

    @Test
    void exactUniformKeepsAUniformSubsetOfTheSqrtSize() {
        double[] f = simulate(ReservoirPolicy.EXACT_UNIFORM, 2);
        int s = SubsetSizeRule.SQRT.size(M, 0);
        assertEquals(5, s);
        for (int c = 0; c < M; c++) {
            assertEquals((double) s / M, f[c], TOL, "class " + c);
        }
        assertEquals(s, f[M], 1e-12, "size follows the sqrt rule exactly");
    }

    @Test
    void addOnlyIncludesEveryInsertedClassWithTheSameProbabilityButGrowsLinearly() {
        double[] f = simulate(ReservoirPolicy.ADD_ONLY, 3);
        // Initial members stay forever: 3/9. E[s_m] = 3 (m+1)/(m0+1), so a class inserted into a pool of m
        // classes enters with probability E[s_m]/(m+1) = 3/10, whatever m is.
        for (int c = 0; c < M0; c++) {
            assertEquals(3.0 / M0, f[c], TOL, "initial class " + c);
        }
        for (int c = M0; c < M; c++) {
            assertEquals(0.3, f[c], TOL, "inserted class " + c);
        }
        assertEquals(3.0 * (M + 1) / (M0 + 1), f[M], 0.02, "E|K| grows linearly: 3 (M+1)/(m0+1) = 7.8");
    }

    @Test
    void exactUniformGrowsFromAbsentClassesWhenTheNewClassIsNotDrawn() {
        // s = 2 of m = 4, target 3 for 5 classes: if the new class is not drawn an absent old class is added.
        UniformRandomProvider rng = RandomStreams.create(4);
        int grownWithoutNew = 0;
        for (int r = 0; r < 2000; r++) {
            int[] k = ReservoirPolicy.EXACT_UNIFORM.insert(new int[]{0, 1}, 4, 4, new int[]{2, 3}, 3, rng);
            assertEquals(3, k.length);
            boolean hasNew = Arrays.stream(k).anyMatch(v -> v == 4);
            grownWithoutNew += hasNew ? 0 : 1;
        }
        assertEquals(0.4, grownWithoutNew / 2000.0, 0.05, "new class drawn with probability 3/5");
    }
}
