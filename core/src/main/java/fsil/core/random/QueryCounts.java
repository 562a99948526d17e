package fsil.core.random;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.DirichletSampler;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * How many queries each class of a few-shot episode gets: Q/K each (balanced), or Dirichlet proportions turned
 * into integer counts exactly as the realistic transductive few-shot code (Veilleux et al.) and BAVARDAGE do it
 * ({@code convert_prob_to_samples} in {@code FSLTask.py} of https://github.com/yhu01/BAVARDAGE, commit 73fc716):
 * p ~ Dir(alpha 1_K), x = Q p; round half to even; while the rounded sum exceeds Q,
 * floor the entry whose fractional part is closest to 0.5 (ties to the lowest index), and ceil it while the sum is
 * short. Counts sum to Q; a class may get 0. The one rule used by the few-shot protocol, meta-training and tuning.
 */
public final class QueryCounts {
    /** Redraws of Dirichlet counts before giving up (BAVARDAGE redraws until feasible). */
    public static final int MAX_DIRICHLET_DRAWS = 10_000;

    private QueryCounts() {
    }

    /** Q/K queries for each of K classes. */
    public static int[] balanced(int ways, int total) {
        int[] counts = new int[ways];
        Arrays.fill(counts, total / ways);
        return counts;
    }

    /**
     * Dirichlet(alpha) counts, redrawn until {@code feasible} accepts them (e.g. every class has the samples for its
     * shots plus its count); null after {@link #MAX_DIRICHLET_DRAWS} rejected draws.
     */
    public static int[] dirichlet(UniformRandomProvider rng, int ways, int total, double alpha,
                                  Predicate<int[]> feasible) {
        DirichletSampler sampler = DirichletSampler.symmetric(rng, ways, alpha);
        for (int attempt = 0; attempt < MAX_DIRICHLET_DRAWS; attempt++) {
            int[] counts = fromProportions(sampler.sample(), total);
            if (feasible.test(counts)) {
                return counts;
            }
        }
        return null;
    }

    /** Integer counts summing to {@code total} from proportions summing to 1 (the rule in the class comment). */
    public static int[] fromProportions(double[] proportions, int total) {
        int k = proportions.length;
        double[] x = new double[k];
        for (int j = 0; j < k; j++) {
            x[j] = total * proportions[j];
        }
        long sum = roundedSum(x);
        while (sum != total) {
            int best = -1;
            double bestGap = Double.POSITIVE_INFINITY;
            for (int j = 0; j < k; j++) {
                double frac = x[j] - Math.floor(x[j]);
                if (frac == 0) {
                    continue; // already an integer: cannot move it
                }
                double gap = Math.abs(frac - 0.5);
                if (gap < bestGap) {
                    bestGap = gap;
                    best = j;
                }
            }
            if (best < 0) {
                break; // all integers: the sum equals Q up to rounding of the proportions
            }
            x[best] = sum > total ? Math.floor(x[best]) : Math.ceil(x[best]);
            sum = roundedSum(x);
        }
        int[] out = new int[k];
        for (int j = 0; j < k; j++) {
            out[j] = (int) Math.rint(x[j]);
        }
        return out;
    }

    private static long roundedSum(double[] x) {
        long s = 0;
        for (double v : x) {
            s += (long) Math.rint(v);
        }
        return s;
    }
}
