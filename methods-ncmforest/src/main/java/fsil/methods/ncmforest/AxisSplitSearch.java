package fsil.methods.ncmforest;

import org.apache.commons.rng.UniformRandomProvider;

import java.util.Arrays;

/**
 * Axis-aligned splits of a conventional random forest (Breiman 2001; the paper's RF baseline): draw
 * {@code axis_features} features without replacement (default ceil(sqrt(d))), and for each one take the threshold
 * with the highest information gain among all midpoints between consecutive distinct values (one sort and one
 * sweep with running sums of n ln n). Ties are broken uniformly at random.
 */
final class AxisSplitSearch implements SplitSearch {

    @Override
    public SplitFunction find(int[] samples, ClassHistogram hist, boolean[] rightSide, TreeWork w) {
        int d = w.dim;
        int n = samples.length;
        int mtry = w.cfg.axisFeatures() > 0 ? Math.min(d, w.cfg.axisFeatures()) : Math.max(1, (int) Math.ceil(Math.sqrt(d)));
        UniformRandomProvider rng = w.growRng;
        int[] feats = new int[d];
        for (int j = 0; j < d; j++) {
            feats[j] = j;
        }
        for (int i = 0; i < mtry; i++) {
            int j = i + rng.nextInt(d - i);
            int t = feats[i];
            feats[i] = feats[j];
            feats[j] = t;
        }
        int m = hist.size();
        int[] compact = w.classScratch2;
        int[] cls = hist.classes();
        for (int c = 0; c < m; c++) {
            compact[cls[c]] = c + 1;
        }
        int[] sampleClass = new int[n];
        for (int i = 0; i < n; i++) {
            sampleClass[i] = compact[w.y[samples[i]]] - 1;
        }
        for (int c = 0; c < m; c++) {
            compact[cls[c]] = 0;
        }
        int[] tot = hist.counts();
        Entropy ent = w.entropy;
        double sAll = 0;
        for (int c = 0; c < m; c++) {
            sAll += ent.nlogn(tot[c]);
        }
        int minChild = w.cfg.minChild();
        long[] keys = new long[n];
        int[] left = new int[m];
        int bestFeature = -1;
        float bestThreshold = 0;
        double bestGain = Double.NEGATIVE_INFINITY;
        int ties = 0;
        for (int fi = 0; fi < mtry; fi++) {
            int f = feats[fi];
            for (int i = 0; i < n; i++) {
                keys[i] = ((long) sortableBits(w.x[samples[i] * d + f]) << 32) | i;
            }
            Arrays.sort(keys);
            Arrays.fill(left, 0);
            double sl = 0;
            double sr = sAll;
            for (int r = 0; r < n - 1; r++) {
                int i = (int) keys[r];
                int c = sampleClass[i];
                int l = left[c];
                sl += ent.nlogn(l + 1) - ent.nlogn(l);
                sr += ent.nlogn(tot[c] - l - 1) - ent.nlogn(tot[c] - l);
                left[c] = l + 1;
                int nl = r + 1;
                if (nl < minChild || n - nl < minChild) {
                    continue;
                }
                float v = valueOf(keys[r]);
                float next = valueOf(keys[r + 1]);
                if (!(v < next)) {
                    continue;
                }
                double g = ent.gain(n, sAll, nl, sl, sr);
                w.candidatesScored++;
                if (g > bestGain) {
                    bestGain = g;
                    ties = 1;
                    bestFeature = f;
                    bestThreshold = midpoint(v, next);
                } else if (g == bestGain && rng.nextInt(++ties) == 0) {
                    bestFeature = f;
                    bestThreshold = midpoint(v, next);
                }
            }
        }
        if (bestFeature < 0) {
            return null;
        }
        AxisSplit split = new AxisSplit(bestFeature, bestThreshold);
        for (int i = 0; i < n; i++) {
            rightSide[i] = split.goesRight(w.x, samples[i] * d);
        }
        return split;
    }

    /** A float's bits mapped so that signed int order is float order. */
    static int sortableBits(float v) {
        int b = Float.floatToIntBits(v);
        return b ^ ((b >> 31) & 0x7fffffff);
    }

    private static float valueOf(long key) {
        int b = (int) (key >> 32);
        return Float.intBitsToFloat(b ^ ((b >> 31) & 0x7fffffff));
    }

    /** A threshold t with a &lt;= t &lt; b (the float midpoint when representable, else a). */
    static float midpoint(float a, float b) {
        float mid = (float) (0.5 * ((double) a + b));
        return mid >= a && mid < b ? mid : a;
    }
}
