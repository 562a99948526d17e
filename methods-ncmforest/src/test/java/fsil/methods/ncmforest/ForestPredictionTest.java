package fsil.methods.ncmforest;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Prediction;
import fsil.core.random.RandomStreams;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Separable data, posteriors, tree order, smoothing, test cost. */
class ForestPredictionTest {

    @Test
    void aSingleTreeWithAllCentroidsSeparatesWellSeparatedClusters() {
        int[] classes = TestData.range(0, 12);
        LabeledData train = TestData.clusters(classes, 10, 5, 10.0, 0.1, 3, 4);
        NcmForestSession s = TestData.session(Map.of("trees", "1", "subset_size", "fraction", "subset_fraction", "1",
                "min_leaf", "1"), 5, 1);
        s.learn(train);
        for (Node leaf : s.trees()[0].leaves()) {
            assertEquals(1, leaf.classes.length, "every leaf is pure");
        }
        assertEquals(1.0, TestData.accuracy(s.predict(train.features()), train.labels()));
        LabeledData test = TestData.clusters(classes, 10, 5, 10.0, 0.1, 3, 5);
        assertEquals(1.0, TestData.accuracy(s.predict(test.features()), test.labels()));
    }

    @Test
    void aSingleAxisTreeSeparatesAxisSeparableData() {
        // Classes on a line in the first coordinate, noise elsewhere: separable by thresholds on feature 0.
        int n = 60;
        float[] x = new float[n * 3];
        int[] y = new int[n];
        var rng = RandomStreams.create(9);
        for (int i = 0; i < n; i++) {
            y[i] = i % 6;
            x[i * 3] = y[i] * 10 + (float) rng.nextDouble();
            x[i * 3 + 1] = (float) rng.nextDouble();
            x[i * 3 + 2] = (float) rng.nextDouble();
        }
        LabeledData d = new LabeledData(FeatureMatrix.wrap(n, 3, x), y);
        NcmForestSession s = TestData.session(Map.of("trees", "1", "split", "axis", "axis_features", "3",
                "min_leaf", "1", "strategy", "igt"), 3, 1);
        s.learn(d);
        assertEquals(1.0, TestData.accuracy(s.predict(d.features()), y));
        assertEquals(6, s.trees()[0].leaves().size(), "one pure leaf per class");
    }

    private static NcmForestSession trained(Map<String, String> p) {
        NcmForestSession s = TestData.session(p, StrategyTest.DIM, 3);
        s.learn(StrategyTest.initial());
        s.learn(StrategyTest.chunk(new int[]{6, 7}, 40, 2));
        return s;
    }

    @Test
    void posteriorsSumToOneAndDoNotDependOnTreeOrder() {
        NcmForestSession s = trained(Map.of("trees", "12"));
        FeatureMatrix q = StrategyTest.chunk(TestData.range(0, 8), 6, 50).features();
        int t = s.trees().length;
        int[] order = new int[t];
        for (int i = 0; i < t; i++) {
            order[i] = i;
        }
        double[] p = s.posteriors(q, order);
        int c = 8;
        boolean someZero = false;
        for (int i = 0; i < q.rows(); i++) {
            double sum = 0;
            for (int k = 0; k < c; k++) {
                sum += p[i * c + k];
                someZero |= p[i * c + k] == 0;
            }
            assertEquals(1.0, sum, 1e-12);
        }
        assertTrue(someZero, "without smoothing a class absent from every reached leaf gets 0");
        for (int rep = 0; rep < 5; rep++) {
            int[] perm = RandomStreams.permutation(t, RandomStreams.create(rep));
            double[] p2 = s.posteriors(q, perm);
            for (int i = 0; i < p.length; i++) {
                assertEquals(p[i], p2[i], 1e-14);
            }
        }
        // A single tree's posterior is its leaf distribution n_l(k)/|S^l|.
        double[] one = s.posteriors(q.selectRows(new int[]{0}), new int[]{3});
        Node leaf = s.trees()[3].leafOf(q.rawData(), 0);
        int[] col = s.classIndex().columnOfInternal();
        for (int k = 0; k < leaf.classes.length; k++) {
            assertEquals(leaf.counts[k] / (double) leaf.total, one[col[leaf.classes[k]]], 1e-15);
        }
    }

    @Test
    void leafPriorSmoothsTowardsUniform() {
        NcmForestSession s = trained(Map.of("trees", "5", "leaf_prior", "1"));
        FeatureMatrix q = StrategyTest.chunk(TestData.range(0, 8), 3, 51).features();
        Prediction p = s.predict(q);
        for (int i = 0; i < p.size(); i++) {
            for (int k = 0; k < p.numClasses(); k++) {
                assertTrue(p.probability(i, k) > 0);
            }
        }
        // Direct formula for one tree: (n_l(k) + 1) / (|S^l| + C).
        double[] one = s.posteriors(q.selectRows(new int[]{0}), new int[]{0});
        Node leaf = s.trees()[0].leafOf(q.rawData(), 0);
        int[] col = s.classIndex().columnOfInternal();
        double z = leaf.total + 8;
        double absent = 1.0;
        for (int k = 0; k < 8; k++) {
            int idx = java.util.Arrays.binarySearch(leaf.classes, k);
            double expected = ((idx >= 0 ? leaf.counts[idx] : 0) + 1) / z;
            assertEquals(expected, one[col[k]], 1e-15);
            absent -= expected;
        }
        assertEquals(0, absent, 1e-12);
    }

    @Test
    void testCostCountsCentroidComparisonsPerTreeAndSample() {
        NcmForestSession s = trained(Map.of("trees", "3"));
        FeatureMatrix q = StrategyTest.chunk(TestData.range(0, 8), 4, 52).features();
        s.predict(q);
        double expected = 0;
        for (Tree t : s.trees()) {
            for (int i = 0; i < q.rows(); i++) {
                Node n = t.root;
                while (!n.isLeaf()) {
                    expected += ((NcmSplit) n.split).size();
                    n = n.split.goesRight(q.rawData(), i * q.cols()) ? n.right : n.left;
                }
            }
        }
        expected /= q.rows() * 3.0;
        assertEquals(expected, s.diagnostics().get("test_cost"), 1e-12);
        assertTrue(s.diagnostics().get("test_cost") > 2, "several centroids per node on the path");
        assertTrue(s.memoryBytes() > s.store().memoryBytes(), "memory counts the stored samples and the trees");
    }

    @Test
    void labelsAreArbitraryGlobalIdsAndColumnsAreSorted() {
        LabeledData d = TestData.clusters(new int[]{42, 7, 1000}, 30, 4, 4, 0.5, 1, 2);
        NcmForestSession s = TestData.session(Map.of("trees", "5"), 4, 1);
        s.learn(d);
        Prediction p = s.predict(d.features());
        assertEquals(java.util.List.of(7, 42, 1000), java.util.Arrays.stream(p.classes()).boxed().toList());
        assertTrue(TestData.accuracy(p, d.labels()) > 0.9);
    }
}
