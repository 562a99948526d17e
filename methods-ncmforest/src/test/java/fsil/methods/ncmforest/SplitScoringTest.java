package fsil.methods.ncmforest;

import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Information gain, the count-table scorer and the two split searches against direct computations. */
class SplitScoringTest {

    /** IG by its definition (paper Eq. 3) from the side of each sample. */
    static double directGain(int[] labels, boolean[] right, int numClasses) {
        int[] all = new int[numClasses];
        int[] l = new int[numClasses];
        int[] r = new int[numClasses];
        int nl = 0;
        for (int i = 0; i < labels.length; i++) {
            all[labels[i]]++;
            if (right[i]) {
                r[labels[i]]++;
            } else {
                l[labels[i]]++;
                nl++;
            }
        }
        int n = labels.length;
        double h = Entropy.entropy(all);
        double hl = nl == 0 ? 0 : Entropy.entropy(l);
        double hr = nl == n ? 0 : Entropy.entropy(r);
        return h - (nl / (double) n) * hl - ((n - nl) / (double) n) * hr;
    }

    @Test
    void gainFormulaMatchesDefinition() {
        UniformRandomProvider rng = RandomStreams.create(1);
        Entropy e = new Entropy(50);
        for (int trial = 0; trial < 200; trial++) {
            int c = 1 + rng.nextInt(6);
            int n = 2 + rng.nextInt(80);
            int[] y = new int[n];
            boolean[] right = new boolean[n];
            for (int i = 0; i < n; i++) {
                y[i] = rng.nextInt(c);
                right[i] = rng.nextBoolean();
            }
            int[] all = new int[c];
            int[] l = new int[c];
            int[] r = new int[c];
            int nl = 0;
            for (int i = 0; i < n; i++) {
                all[y[i]]++;
                if (right[i]) {
                    r[y[i]]++;
                } else {
                    l[y[i]]++;
                    nl++;
                }
            }
            double sAll = 0;
            double sl = 0;
            double sr = 0;
            for (int k = 0; k < c; k++) {
                sAll += e.nlogn(all[k]);
                sl += e.nlogn(l[k]);
                sr += e.nlogn(r[k]);
            }
            assertEquals(directGain(y, right, c), e.gain(n, sAll, nl, sl, sr), 1e-12);
        }
    }

    @Test
    void entropyOfKnownHistograms() {
        assertEquals(0.0, Entropy.entropy(new int[]{7}), 0);
        assertEquals(Math.log(2), Entropy.entropy(new int[]{3, 3}), 1e-15);
        assertEquals(Math.log(4), Entropy.entropy(new int[]{1, 1, 1, 1}), 1e-15);
        Entropy e = new Entropy(3);
        assertEquals(10 * Math.log(10), e.nlogn(10), 1e-12, "beyond the table");
        assertEquals(0.0, e.nlogn(0), 0);
    }

    @Test
    void countTableScorerEqualsRoutingEverySample() {
        UniformRandomProvider rng = RandomStreams.create(2);
        int numClasses = 9;
        Entropy ent = new Entropy(500);
        for (int trial = 0; trial < 50; trial++) {
            int n = 20 + rng.nextInt(200);
            int s = 2 + rng.nextInt(6);
            int[] labels = new int[n];
            int[] nearest = new int[n];
            int[] samples = new int[n];
            for (int i = 0; i < n; i++) {
                labels[i] = rng.nextInt(numClasses);
                nearest[i] = rng.nextInt(s);
                samples[i] = i;
            }
            ClassHistogram h = ClassHistogram.of(samples, n, labels, new int[numClasses]);
            int minChild = rng.nextInt(3) * 10;
            PartitionScorer scorer = new PartitionScorer(s, nearest, samples, n, labels, h, new int[numClasses], ent, minChild);
            for (int code = 0; code < (1 << s); code++) {
                boolean[] e = new boolean[s];
                for (int k = 0; k < s; k++) {
                    e[k] = ((code >> k) & 1) != 0;
                }
                boolean[] side = new boolean[n];
                int nr = 0;
                for (int i = 0; i < n; i++) {
                    side[i] = e[nearest[i]];
                    nr += side[i] ? 1 : 0;
                }
                double got = scorer.score(e);
                if (nr < minChild || n - nr < minChild) {
                    assertEquals(Double.NEGATIVE_INFINITY, got);
                } else {
                    assertEquals(directGain(labels, side, numClasses), got, 1e-12);
                }
            }
        }
    }

    private static TreeWork work(Map<String, String> params, LabeledData data, long seed) {
        ForestConfig cfg = ForestConfig.from(TestData.params(params));
        SampleStore store = new SampleStore(data.dimension());
        ClassIndex ci = new ClassIndex();
        store.append(data.features(), ci.intern(data.labels()));
        return new TreeWork(cfg, store, ci.size(), new Entropy(store.size() + 1), seed);
    }

    @Test
    void ncmSearchEnumeratesAllPartitionsAndPicksTheBest() {
        LabeledData data = TestData.clusters(new int[]{0, 1, 2, 3, 4}, 15, 3, 1.0, 1.0, 5, 6);
        TreeWork w = work(Map.of("subset_size", "fraction", "subset_fraction", "1", "min_leaf", "5"), data, 3);
        int[] samples = TestData.range(0, data.size());
        ClassHistogram h = w.histogram(samples);
        boolean[] side = new boolean[samples.length];
        NcmSplit f = (NcmSplit) new NcmSplitSearch().find(samples, h, side, w);
        assertNotNull(f);
        assertEquals(5, f.size(), "fraction 1 uses every class present");
        assertEquals(15, w.candidatesScored, "2^(5-1) - 1 distinct partitions, each once");
        // Centroids are the class means.
        for (int k = 0; k < 5; k++) {
            double[] mean = new double[3];
            for (int i = 0; i < data.size(); i++) {
                if (w.y[i] == f.classAt(k)) {
                    for (int j = 0; j < 3; j++) {
                        mean[j] += w.x[i * 3 + j] / 15.0;
                    }
                }
            }
            for (int j = 0; j < 3; j++) {
                assertEquals(mean[j], f.centroids()[k * 3 + j], 1e-5);
            }
        }
        // The chosen assignment has the highest gain of all valid assignments, computed by routing.
        int[] nearest = new int[samples.length];
        int[] labels = new int[samples.length];
        for (int i = 0; i < samples.length; i++) {
            nearest[i] = f.nearest(w.x, i * 3);
            labels[i] = w.y[i];
            assertEquals(f.goesRight(w.x, i * 3), side[i], "reported sides follow the split");
        }
        double best = Double.NEGATIVE_INFINITY;
        for (int code = 1; code < 31; code++) {
            boolean[] s = new boolean[samples.length];
            int nr = 0;
            for (int i = 0; i < samples.length; i++) {
                s[i] = ((code >> nearest[i]) & 1) != 0;
                nr += s[i] ? 1 : 0;
            }
            if (nr >= 5 && samples.length - nr >= 5) {
                best = Math.max(best, directGain(labels, s, 5));
            }
        }
        assertEquals(best, directGain(labels, side, 5), 1e-12);
    }

    @Test
    void ncmSearchSamplesTheBudgetWhenPartitionsExceedIt() {
        LabeledData data = TestData.clusters(TestData.range(0, 12), 4, 2, 3.0, 0.3, 5, 6);
        TreeWork w = work(Map.of("subset_size", "fraction", "subset_fraction", "1", "min_leaf", "1",
                "candidates", "100"), data, 3);
        int[] samples = TestData.range(0, data.size());
        assertNotNull(new NcmSplitSearch().find(samples, w.histogram(samples), new boolean[samples.length], w));
        assertEquals(100, w.candidatesScored, "2047 partitions exceed the budget: exactly 100 are scored");
    }

    @Test
    void ncmSearchReturnsNullWhenNoCandidateIsValid() {
        LabeledData data = TestData.clusters(new int[]{0, 1}, 6, 2, 3.0, 0.3, 5, 6);
        TreeWork w = work(Map.of("min_leaf", "7"), data, 3);
        int[] samples = TestData.range(0, data.size());
        assertNull(new NcmSplitSearch().find(samples, w.histogram(samples), new boolean[12], w),
                "12 samples cannot make two children of 7");
    }

    @Test
    void axisSearchFindsTheBestThresholdOfEveryFeature() {
        LabeledData data = TestData.clusters(new int[]{0, 1, 2}, 20, 4, 1.0, 1.0, 8, 9);
        TreeWork w = work(Map.of("split", "axis", "axis_features", "4", "min_leaf", "3", "strategy", "igt"), data, 3);
        int n = data.size();
        int[] samples = TestData.range(0, n);
        boolean[] side = new boolean[n];
        AxisSplit f = (AxisSplit) new AxisSplitSearch().find(samples, w.histogram(samples), side, w);
        assertNotNull(f);
        int[] labels = java.util.Arrays.copyOf(w.y, n);
        double best = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < n; i++) {
                float t = w.x[i * 4 + j];
                boolean[] s = new boolean[n];
                int nr = 0;
                for (int r = 0; r < n; r++) {
                    s[r] = w.x[r * 4 + j] > t;
                    nr += s[r] ? 1 : 0;
                }
                if (nr >= 3 && n - nr >= 3) {
                    best = Math.max(best, directGain(labels, s, 3));
                }
            }
        }
        assertEquals(best, directGain(labels, side, 3), 1e-12);
        for (int i = 0; i < n; i++) {
            assertEquals(w.x[i * 4 + f.feature()] > f.threshold(), side[i]);
        }
    }

    @Test
    void axisMidpointLiesBetweenValues() {
        float a = 1.0f;
        float b = Math.nextUp(a);
        assertEquals(a, AxisSplitSearch.midpoint(a, b), "no float strictly between neighbours: use the lower value");
        float m = AxisSplitSearch.midpoint(-2f, 3f);
        assertTrue(m >= -2f && m < 3f);
        float[] v = {-3f, -0f, 0f, 1e-30f, 2f, Float.MAX_VALUE, -Float.MAX_VALUE};
        for (float p : v) {
            for (float q : v) {
                assertEquals(Float.compare(p, q) < 0, AxisSplitSearch.sortableBits(p) < AxisSplitSearch.sortableBits(q)
                        , p + " vs " + q);
            }
        }
    }

    @Test
    void subsetSizeRules() {
        assertEquals(32, SubsetSizeRule.SQRT.size(1000, 0.2));
        assertEquals(4, SubsetSizeRule.SQRT.size(16, 0.2));
        assertEquals(5, SubsetSizeRule.SQRT.size(17, 0.2));
        assertEquals(2, SubsetSizeRule.SQRT.size(3, 0.2), "at least 2");
        assertEquals(2, SubsetSizeRule.SQRT.size(2, 0.2));
        assertEquals(1, SubsetSizeRule.SQRT.size(1, 0.2), "never more than the classes present");
        assertEquals(10, SubsetSizeRule.LOG.size(1000, 0.2));
        assertEquals(4, SubsetSizeRule.LOG.size(16, 0.2));
        assertEquals(200, SubsetSizeRule.FRACTION.size(1000, 0.2));
        assertEquals(2, SubsetSizeRule.FRACTION.size(5, 0.2));
        assertArrayEquals(new int[]{3, 4}, new int[]{SubsetSizeRule.SQRT.size(9, 0), SubsetSizeRule.SQRT.size(10, 0)});
    }
}
