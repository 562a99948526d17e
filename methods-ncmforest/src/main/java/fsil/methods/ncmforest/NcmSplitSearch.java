package fsil.methods.ncmforest;

import fsil.core.linalg.Distances;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Trains an NCM split node (paper Sec. 3.3): a uniform random subset K^n of the classes present, their
 * centroids from the node's samples, each sample's nearest centroid computed once, then |F^n| distinct left/right
 * assignments of the centroids scored by information gain from the centroid-by-class count table.
 *
 * <p>An assignment and its complement give the same partition with the children swapped, so candidates are
 * counted as partitions: when all 2^(s-1) - 1 proper partitions fit in the budget they are all enumerated,
 * otherwise the budget is drawn uniformly without replacement (rejecting the two constant assignments). Above 63
 * centroids duplicates are not checked (their probability is below F^2 / 2^63). Ties between equal gains are
 * broken uniformly at random.
 */
final class NcmSplitSearch implements SplitSearch {

    @Override
    public SplitFunction find(int[] samples, ClassHistogram hist, boolean[] rightSide, TreeWork w) {
        int m = hist.size();
        int s = w.cfg.subsetSize(m);
        if (s < 2) {
            return null;
        }
        UniformRandomProvider rng = w.growRng;
        int[] pool = hist.classes().clone();
        for (int i = 0; i < s; i++) {
            int j = i + rng.nextInt(m - i);
            int t = pool[i];
            pool[i] = pool[j];
            pool[j] = t;
        }
        int[] subset = java.util.Arrays.copyOf(pool, s);
        java.util.Arrays.sort(subset);
        float[] centroids = centroids(subset, samples, samples.length, w);
        int n = samples.length;
        int[] nearest = nearest(centroids, s, samples, n, w);
        PartitionScorer scorer = new PartitionScorer(s, nearest, samples, n, w.y, hist, w.classScratch, w.entropy,
                w.cfg.minChild());
        boolean[] best = bestAssignment(scorer, s, w.cfg.candidates(), rng, w);
        if (best == null) {
            return null;
        }
        for (int i = 0; i < n; i++) {
            rightSide[i] = best[nearest[i]];
        }
        return new NcmSplit(subset, centroids, best, w.dim);
    }

    /** Means (float32) of the samples of each class in {@code subset}, computed in float64. */
    static float[] centroids(int[] subset, int[] samples, int n, TreeWork w) {
        int d = w.dim;
        int s = subset.length;
        int[] pos = w.classScratch2;
        for (int k = 0; k < s; k++) {
            pos[subset[k]] = k + 1;
        }
        double[] sums = new double[s * d];
        int[] cnt = new int[s];
        for (int i = 0; i < n; i++) {
            int p = pos[w.y[samples[i]]] - 1;
            if (p >= 0) {
                int off = samples[i] * d;
                int o = p * d;
                for (int j = 0; j < d; j++) {
                    sums[o + j] += w.x[off + j];
                }
                cnt[p]++;
            }
        }
        for (int k = 0; k < s; k++) {
            pos[subset[k]] = 0;
        }
        float[] c = new float[s * d];
        for (int k = 0; k < s; k++) {
            if (cnt[k] == 0) {
                throw new IllegalStateException("class " + subset[k] + " has no sample at the node");
            }
            for (int j = 0; j < d; j++) {
                c[k * d + j] = (float) (sums[k * d + j] / cnt[k]);
            }
        }
        return c;
    }

    /** Position of the nearest centroid (first on ties) for each sample. */
    static int[] nearest(float[] centroids, int s, int[] samples, int n, TreeWork w) {
        int d = w.dim;
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int off = samples[i] * d;
            int best = 0;
            double bestD = Double.POSITIVE_INFINITY;
            for (int k = 0; k < s; k++) {
                double dist = Distances.squared(w.x, off, centroids, k * d, d);
                if (dist < bestD) {
                    bestD = dist;
                    best = k;
                }
            }
            out[i] = best;
        }
        w.distanceEvals += (long) n * s;
        return out;
    }

    /** The best valid assignment among the candidates, or null if none is valid. */
    static boolean[] bestAssignment(PartitionScorer scorer, int s, int budget, UniformRandomProvider rng, TreeWork w) {
        long partitions = s <= 62 ? (1L << (s - 1)) - 1 : Long.MAX_VALUE;
        boolean[] e = new boolean[s];
        Best best = new Best();
        if (partitions <= budget) {
            for (long code = 1; code <= partitions; code++) {
                e[0] = false;
                for (int j = 1; j < s; j++) {
                    e[j] = ((code >>> (j - 1)) & 1L) != 0;
                }
                best.consider(e, scorer.score(e), rng);
                w.candidatesScored++;
            }
        } else {
            LongSet seen = s <= 63 ? new LongSet(2 * budget) : null;
            for (int f = 0; f < budget; f++) {
                while (true) {
                    // A uniform assignment complemented so that e[0] = left: the other bits stay iid uniform.
                    boolean any = false;
                    e[0] = false;
                    for (int j = 1; j < s; j++) {
                        e[j] = rng.nextBoolean();
                        any |= e[j];
                    }
                    if (!any) {
                        continue;
                    }
                    if (seen != null) {
                        long code = 0;
                        for (int j = 1; j < s; j++) {
                            if (e[j]) {
                                code |= 1L << (j - 1);
                            }
                        }
                        if (!seen.add(code)) {
                            continue;
                        }
                    }
                    break;
                }
                best.consider(e, scorer.score(e), rng);
                w.candidatesScored++;
            }
        }
        return best.assignment;
    }

    /** Running argmax with uniform tie-breaking (reservoir over equal maxima). */
    static final class Best {
        boolean[] assignment;
        double gain = Double.NEGATIVE_INFINITY;
        int ties;

        void consider(boolean[] e, double g, UniformRandomProvider rng) {
            if (g == Double.NEGATIVE_INFINITY) {
                return;
            }
            if (g > gain) {
                gain = g;
                assignment = e.clone();
                ties = 1;
            } else if (g == gain) {
                ties++;
                if (rng.nextInt(ties) == 0) {
                    assignment = e.clone();
                }
            }
        }
    }

    /** Open-addressing set of longs (no boxing), for de-duplicating sampled partitions. */
    static final class LongSet {
        private final long[] keys;
        private final boolean[] used;
        private final int mask;

        LongSet(int expected) {
            int cap = Integer.highestOneBit(Math.max(4, expected) * 2);
            keys = new long[cap];
            used = new boolean[cap];
            mask = cap - 1;
        }

        /** Adds {@code k}; false if it was present. Holds at most half its capacity by construction of callers. */
        boolean add(long k) {
            int h = (int) (fsil.core.random.RandomStreams.mix(k) & mask);
            while (used[h]) {
                if (keys[h] == k) {
                    return false;
                }
                h = (h + 1) & mask;
            }
            used[h] = true;
            keys[h] = k;
            return true;
        }
    }
}
