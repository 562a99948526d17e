package fsil.methods.ncmforest;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.core.linalg.Distances;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The float filter decides every NCM split as the exact distances do, and grouped routing ({@link BatchRouter})
 * reaches, for every query and every tree, the leaf that one query alone reaches: on random data, on exact and
 * one-ulp ties between centroids on opposite sides, on sums that overflow float, and for groups of every size.
 */
class GroupedRoutingTest {

    /** Queries: fresh draws around the class means, copies of training rows, and midpoints of two training rows. */
    private static float[] queries(LabeledData train, int n, int dim, long seed) {
        UniformRandomProvider r = RandomStreams.create(seed);
        float[] x = train.features().rawData();
        LabeledData fresh = TestData.clusters(TestData.range(0, 60), (n + 59) / 60, dim, 1.0, 1.0, 3, seed);
        float[] q = new float[n * dim];
        System.arraycopy(fresh.features().rawData(), 0, q, 0, n * dim);
        for (int i = 0; i < n; i += 3) {
            int a = r.nextInt(train.size());
            int b = r.nextInt(train.size());
            for (int j = 0; j < dim; j++) {
                q[i * dim + j] = i % 2 == 0 ? x[a * dim + j] : (x[a * dim + j] + x[b * dim + j]) / 2;
            }
        }
        return q;
    }

    @ParameterizedTest(name = "split={0}")
    @ValueSource(strings = {"ncm", "axis"})
    void everyQueryReachesTheSameLeafInEveryTree(String split) {
        int dim = 48;
        LabeledData train = TestData.clusters(TestData.range(0, 60), 12, dim, 1.0, 1.0, 3, 4);
        NcmForestSession s = TestData.session(Map.of("trees", "6", "split", split, "strategy", "igt"), dim, 7);
        s.learn(train);
        int n = 1300;   // more than one prediction block, groups of every size
        float[] q = queries(train, n, dim, 5);
        if (s.trees()[0].root.split instanceof NcmSplit root) {
            // midpoints of two root centroids on opposite sides: near ties for the filter
            int a = 0;
            int b = 1;
            while (root.rightAt(b) == root.rightAt(a)) {
                b++;
            }
            for (int i = 4; i < n; i += 50) {
                for (int j = 0; j < dim; j++) {
                    q[i * dim + j] = (root.centroidRows()[a * dim + j] + root.centroidRows()[b * dim + j]) / 2;
                }
            }
        }
        int[] rows = TestData.range(0, n);
        long exact = 0;
        for (Tree t : s.trees()) {
            BatchRouter router = new BatchRouter(q, dim, n);
            Node[] leaves = new Node[n];
            router.route(t.root, rows, n, leaves);
            for (int i = 0; i < n; i++) {
                assertSame(t.leafOf(q, i * dim), leaves[i], "query " + i);
            }
            exact += router.exactDistances();
        }
        if (split.equals("ncm")) {
            assertTrue(exact > 0, "the copies and midpoints make near ties that need the exact distances");
        }
        // the session's posteriors and diagnostics, grouped and one query at a time: identical
        FeatureMatrix fm = FeatureMatrix.wrap(n, dim, q);
        int[] order = {3, 0, 5, 1, 4, 2};
        double[] grouped = s.posteriors(fm, order, true);
        Map<String, Double> dg = Map.copyOf(s.diagnostics());
        double[] alone = s.posteriors(fm, order, false);
        assertArrayEquals(alone, grouped);
        assertEquals(s.diagnostics().get("test_cost"), dg.get("test_cost"));
        assertEquals(s.diagnostics().get("test_path_depth"), dg.get("test_path_depth"));
    }

    @Test
    void largeGroupsOfLongVectorsAreFilteredInParts() {
        int dim = 6000;   // the filter takes 21 queries at a time (2^17 floats)
        LabeledData train = TestData.clusters(TestData.range(0, 8), 12, dim, 1.0, 1.0, 3, 4);
        NcmForestSession s = TestData.session(Map.of("trees", "2", "strategy", "igt"), dim, 7);
        s.learn(train);
        int n = 1300;
        float[] q = TestData.clusters(TestData.range(0, 8), (n + 7) / 8, dim, 1.0, 1.0, 3, 5).features().rawData();
        for (Tree t : s.trees()) {
            BatchRouter router = new BatchRouter(q, dim, n);
            assertTrue(router.filterGroup < n, "the root's group is split: " + router.filterGroup);
            Node[] leaves = new Node[n];
            router.route(t.root, TestData.range(0, n), n, leaves);
            for (int i = 0; i < n; i++) {
                assertSame(t.leafOf(q, i * dim), leaves[i], "query " + i);
            }
        }
    }

    /**
     * A split with the given centroids and sides: the group filter's and the split's own decisions equal the side of
     * the exactly nearest centroid for every query.
     */
    private static void assertFilterAgrees(float[] centroids, boolean[] right, int dim, float[] q, int n,
                                           boolean expectExact) {
        int k = right.length;
        NcmSplit split = new NcmSplit(TestData.range(0, k), centroids, right, dim);
        NearestFilter f = new NearestFilter(dim, n);
        boolean[] grouped = new boolean[n];
        f.goesRight(split, q, TestData.range(0, n), 0, n, grouped);
        for (int i = 0; i < n; i++) {
            boolean truth = split.rightAt(split.nearest(q, i * dim));
            assertEquals(truth, grouped[i], "query " + i + " (group filter)");
            assertEquals(truth, split.goesRight(q, i * dim), "query " + i);
        }
        if (expectExact) {
            assertTrue(f.exact[0] > 0, "near ties are resolved with exact distances");
        }
    }

    @Test
    void theCentroidsAndTheirAccountingStayAsTheyWere() {
        int dim = 37;
        int k = 11;
        float[] c = TestData.clusters(TestData.range(0, k), 1, dim, 1.0, 0.0, 8, 1).features().rawData();
        NcmSplit split = new NcmSplit(TestData.range(0, k), c.clone(), new boolean[k], dim);
        assertArrayEquals(c, split.centroids());
        assertArrayEquals(c, split.centroidRows());
        assertEquals(4L * k * dim + 4 * k + k + 48, split.memoryBytes(), "the floats, ids, sides");
    }

    @ParameterizedTest(name = "centroids={0}")
    @ValueSource(ints = {1, 2, 3, 5, 6, 7, 8, 9, 13, 22})
    void exactAndOneUlpTiesOnOppositeSidesAreResolvedExactly(int k) {
        int dim = 33;
        UniformRandomProvider r = RandomStreams.create(k);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(r);
        float[] c = new float[k * dim];
        boolean[] right = new boolean[k];
        for (int i = 0; i < k; i++) {
            right[i] = i % 2 == 1;
            for (int j = 0; j < dim; j++) {
                // pairs (0,1), (2,3), ...: equal, or one ulp apart in one coordinate
                c[i * dim + j] = i % 2 == 1 ? c[(i - 1) * dim + j] : (float) g.sample();
            }
            if (i % 4 == 3) {
                c[i * dim + 5] = Math.nextUp(c[i * dim + 5]);
            }
        }
        int n = 40;
        float[] q = new float[n * dim];
        for (int i = 0; i < n; i++) {
            int near = r.nextInt(k);
            for (int j = 0; j < dim; j++) {
                q[i * dim + j] = i % 4 == 0 ? c[near * dim + j] : c[near * dim + j] + (float) (0.3 * g.sample());
            }
        }
        assertFilterAgrees(c, right, dim, q, n, k > 1);
    }

    @Test
    void floatOverflowFallsBackToTheExactKernel() {
        int dim = 16;
        float[] c = new float[2 * dim];
        java.util.Arrays.fill(c, dim, 2 * dim, 1e19f);
        int n = 36;
        float[] q = new float[n * dim];
        for (int i = 0; i < n; i++) {
            java.util.Arrays.fill(q, i * dim, (i + 1) * dim, i * 3e17f);   // (1e19)^2 overflows float, not double
        }
        assertFilterAgrees(c, new boolean[]{false, true}, dim, q, n, false);
        float[] c9 = new float[9 * dim];
        java.util.Arrays.fill(c9, 4 * dim, 9 * dim, 1e19f);
        assertFilterAgrees(c9, new boolean[]{false, false, false, false, true, true, true, true, true}, dim, q, n,
                false);
    }

    @Test
    void theBoundHoldsAndIsTight() {
        // |float sum - exact kernel| <= E(float sum) over vectors of very different scales; E is ~ d 2^-24 relative
        int dim = 1000;
        UniformRandomProvider r = RandomStreams.create(11);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(r);
        FloatDistanceBound f = new FloatDistanceBound(dim);
        double worst = 0;
        for (int rep = 0; rep < 300; rep++) {
            double scale = Math.pow(10, r.nextInt(44) - 30);   // up to 1e13: the sums stay finite in float
            float[] a = new float[dim];
            float[] b = new float[dim];
            for (int j = 0; j < dim; j++) {
                a[j] = (float) (scale * g.sample());
                b[j] = rep % 3 == 0 ? a[j] + (float) (1e-3 * scale * g.sample()) : (float) (scale * g.sample());
            }
            float s = 0;
            for (int j = 0; j < dim; j++) {
                float e = a[j] - b[j];
                s += e * e;
            }
            assertTrue(Float.isFinite(s));
            double exact = Distances.squared(a, 0, b, 0, dim);
            double bound = f.of(s);
            assertTrue(Math.abs(s - exact) <= bound, "rep " + rep + ": |" + s + " - " + exact + "| > " + bound);
            worst = Math.max(worst, Math.abs(s - exact) / bound);
            assertTrue(bound <= 1.1 * dim * Math.scalb(1.0, -24) * s + 1e-40, "bound " + bound + " for " + s);
        }
        assertTrue(worst < 0.5, "the measured errors stay well inside the bound: " + worst);
    }

    @Test
    void largeGroupsNeedFewExactDistances() {
        // the filter's point: at d = 200, most decisions are settled in float
        int dim = 200;
        LabeledData train = TestData.clusters(TestData.range(0, 100), 10, dim, 1.0, 1.0, 3, 4);
        NcmForestSession s = TestData.session(Map.of("trees", "3"), dim, 7);
        s.learn(train);
        LabeledData test = TestData.clusters(TestData.range(0, 100), 5, dim, 1.0, 1.0, 3, 9);
        s.predict(test.features());
        double comparisons = s.diagnostics().get("test_cost") * test.size() * 3;
        assertTrue(s.lastExactDistances < 0.02 * comparisons,
                s.lastExactDistances + " exact distances for " + comparisons + " comparisons");
    }
}
