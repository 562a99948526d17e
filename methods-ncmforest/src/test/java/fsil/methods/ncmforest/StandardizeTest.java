package fsil.methods.ncmforest;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The optional whitening by the first learn()'s statistics (paper Sec. 5). */
class StandardizeTest {

    private static LabeledData scaled(LabeledData d, int[] log2Scale) {
        return new LabeledData(scaled(d.features(), log2Scale), d.labels());
    }

    /** Multiplies feature j by 2^log2Scale[j]: exact in floating point. */
    private static FeatureMatrix scaled(FeatureMatrix f, int[] log2Scale) {
        float[] x = f.rawData().clone();
        int d = f.cols();
        for (int i = 0; i < x.length; i++) {
            x[i] = Math.scalb(x[i], log2Scale[i % d]);
        }
        return FeatureMatrix.wrap(f.rows(), d, x);
    }

    @Test
    void firstChunkIsWhitened() {
        LabeledData d = StrategyTest.initial();
        FeatureMatrix w = Standardizer.fit(d.features()).apply(d.features());
        int n = w.rows();
        for (int j = 0; j < w.cols(); j++) {
            double m = 0;
            double v = 0;
            for (int i = 0; i < n; i++) {
                m += w.get(i, j);
            }
            m /= n;
            for (int i = 0; i < n; i++) {
                v += (w.get(i, j) - m) * (w.get(i, j) - m);
            }
            assertEquals(0, m, 1e-6);
            assertEquals(1, v / n, 1e-5);
        }
        FeatureMatrix constant = FeatureMatrix.wrap(3, 1, new float[]{5, 5, 5});
        assertArrayEquals(new float[]{0, 0, 0}, Standardizer.fit(constant).apply(constant).rawData());
    }

    @Test
    void predictionsAreInvariantToPerFeatureScalingWhenStandardized() {
        int[] scale = {3, -2, 0, 5, -7, 1};
        Map<String, String> p = Map.of("standardize", "initial", "trees", "5", "strategy", "rust");
        NcmForestSession a = TestData.session(p, StrategyTest.DIM, 4);
        NcmForestSession b = TestData.session(p, StrategyTest.DIM, 4);
        a.learn(StrategyTest.initial());
        b.learn(scaled(StrategyTest.initial(), scale));
        LabeledData next = StrategyTest.chunk(new int[]{6, 7}, 40, 2);
        a.learn(next);
        b.learn(scaled(next, scale));
        FeatureMatrix q = StrategyTest.chunk(TestData.range(0, 8), 5, 3).features();
        assertArrayEquals(a.predict(q).rawProbabilities(), b.predict(scaled(q, scale)).rawProbabilities());
    }
}
