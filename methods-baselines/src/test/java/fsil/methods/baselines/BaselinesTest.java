package fsil.methods.baselines;

import fsil.api.Background;
import fsil.api.Episode;
import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import fsil.api.Method;
import fsil.api.Prediction;
import fsil.api.Session;
import fsil.api.SessionContext;
import fsil.testkit.MethodConformance;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class BaselinesTest {

    @TestFactory
    Stream<DynamicTest> conformance() {
        return Stream.of(
                MethodConformance.of(new NcmMethod()).tests(),
                MethodConformance.of(new NcmMethod()).withParams(Map.of("metric", "cosine", "temperature", "0.1")).tests(),
                MethodConformance.of(new KnnMethod()).tests(),
                MethodConformance.of(new KnnMethod()).withParams(Map.of("k", "1", "weights", "uniform", "alpha", "0.5")).tests(),
                MethodConformance.of(new SoftKMeansMethod()).tests()).flatMap(s -> s);
    }

    private static final LabeledData TRAIN = new LabeledData(
            FeatureMatrix.of(new double[][]{{0, 0}, {2, 0}, {10, 10}, {10, 12}}), new int[]{7, 7, 3, 3});

    private static Prediction run(Method m, Map<String, String> p, LabeledData train, FeatureMatrix q) {
        Session s = m.learner(m.params(p), Background.none(2)).newSession(SessionContext.incremental(2, 0));
        s.learn(train);
        return s.predict(q);
    }

    @Test
    void ncmEuclideanMatchesGaussianPosterior() {
        FeatureMatrix q = FeatureMatrix.of(new double[][]{{1, 1}});
        Prediction p = run(new NcmMethod(), Map.of("temperature", "4"), TRAIN, q);
        // means: class 3 -> (10, 11), class 7 -> (1, 0); squared distances 181 and 1
        double l3 = -181 / 8.0;
        double l7 = -1 / 8.0;
        double p3 = Math.exp(l3) / (Math.exp(l3) + Math.exp(l7));
        assertArrayEquals(new int[]{3, 7}, p.classes());
        assertEquals(p3, p.probability(0, 0), 1e-15);
        assertEquals(1 - p3, p.probability(0, 1), 1e-15);
    }

    @Test
    void ncmCosineUsesAngles() {
        FeatureMatrix q = FeatureMatrix.of(new double[][]{{5, 5.5}});
        Prediction p = run(new NcmMethod(), Map.of("metric", "cosine", "temperature", "1"), TRAIN, q);
        double cos3 = (5 * 10 + 5.5 * 11) / (Math.hypot(5, 5.5) * Math.hypot(10, 11));
        double cos7 = 5 / Math.hypot(5, 5.5);
        assertEquals(Math.exp(cos3) / (Math.exp(cos3) + Math.exp(cos7)), p.probability(0, 0), 1e-12);
    }

    @Test
    void ncmIncrementalChunksEqualOneBatch() {
        Method m = new NcmMethod();
        Session a = m.learner(m.defaults(), Background.none(2)).newSession(SessionContext.incremental(2, 0));
        a.learn(TRAIN.select(new int[]{0, 2}));
        a.learn(TRAIN.select(new int[]{1, 3}));
        FeatureMatrix q = FeatureMatrix.of(new double[][]{{3, 4}, {9, 9}});
        assertArrayEquals(run(m, Map.of(), TRAIN, q).rawProbabilities(), a.predict(q).rawProbabilities(), 1e-15);
    }

    @Test
    void knnVoteSharesAndSmoothing() {
        FeatureMatrix q = FeatureMatrix.of(new double[][]{{1, 0}, {10, 11}});
        Prediction p = run(new KnnMethod(), Map.of("k", "3", "weights", "uniform"), TRAIN, q);
        assertArrayEquals(new double[]{1 / 3.0, 2 / 3.0, 2 / 3.0, 1 / 3.0}, p.rawProbabilities(), 1e-15);
        Prediction s = run(new KnnMethod(), Map.of("k", "1", "alpha", "1", "weights", "uniform"), TRAIN, q);
        assertArrayEquals(new double[]{1 / 3.0, 2 / 3.0, 2 / 3.0, 1 / 3.0}, s.rawProbabilities(), 1e-15);
        Prediction big = run(new KnnMethod(), Map.of("k", "100", "weights", "uniform"), TRAIN, q);
        assertArrayEquals(new double[]{0.5, 0.5, 0.5, 0.5}, big.rawProbabilities(), 1e-15, "k is capped at n");
    }

    @Test
    void softKMeansOneIterationIsTemperedNcmOnNormalisedFeatures() {
        LabeledData support = new LabeledData(FeatureMatrix.of(new double[][]{{1, 0}, {0, 1}}), new int[]{4, 9});
        FeatureMatrix q = FeatureMatrix.of(new double[][]{{3, 1}});
        Episode e = new Episode(support, q, 2, 1, true);
        Method m = new SoftKMeansMethod();
        Prediction p = m.learner(m.params(Map.of("iterations", "1", "temperature", "2")), Background.none(2)).solve(e, 0);
        double[] x = {3 / Math.sqrt(10), 1 / Math.sqrt(10)};
        double d4 = Math.pow(x[0] - 1, 2) + x[1] * x[1];
        double d9 = x[0] * x[0] + Math.pow(x[1] - 1, 2);
        double p4 = 1 / (1 + Math.exp(-2 * d9 + 2 * d4));
        assertEquals(p4, p.probability(0, 0), 1e-12);
    }

    @Test
    void softKMeansMovesCentroidsTowardsQueryClusters() {
        // Support of class 1 sits at the edge of its cluster; after a few rounds the query cluster pulls it.
        LabeledData support = new LabeledData(FeatureMatrix.of(new double[][]{{1, 0.05}, {0.05, 1}}), new int[]{1, 2});
        double[][] qs = new double[20][];
        for (int i = 0; i < 10; i++) {
            qs[i] = new double[]{1, 0.6 + 0.01 * i};
            qs[10 + i] = new double[]{0.2 + 0.01 * i, 1};
        }
        Episode e = new Episode(support, FeatureMatrix.of(qs), 2, 1, true);
        Method m = new SoftKMeansMethod();
        Prediction one = m.learner(m.params(Map.of("iterations", "1")), Background.none(2)).solve(e, 0);
        Prediction many = m.learner(m.params(Map.of("iterations", "10")), Background.none(2)).solve(e, 0);
        double acc1 = 0;
        double accMany = 0;
        for (int i = 0; i < 20; i++) {
            int truth = i < 10 ? 1 : 2;
            acc1 += one.labels()[i] == truth ? 1 : 0;
            accMany += many.labels()[i] == truth ? 1 : 0;
        }
        assertEquals(20, accMany, "soft k-means must recover both query clusters");
        assertEquals(true, accMany >= acc1);
    }
}
