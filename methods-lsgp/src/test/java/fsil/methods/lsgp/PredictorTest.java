package fsil.methods.lsgp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PredictorTest {

    /** The one-exp fast path equals the log-space likelihood averaged over the same draws, also where sigma underflows. */
    @Test
    void monteCarloProbabilitiesEqualTheLogSpaceAverage() {
        int c = 3;
        double tau = 0.05;
        Predictor p = new Predictor(c, tau, 400, 17);
        double[][][] means = {{{0.3, -200.0, 1.0}, {-0.1, -201.0, -3.0}, {0.0, -199.5, 2.0}}};
        double[][][] vars = {{{0.5, 0.2, 0.0}, {1.0, 0.3, 0.1}, {0.2, 0.1, 4.0}}};
        double[] got = p.probabilities(means, vars, 3, 1.0);
        // reference: regenerate the same normals through a second predictor with the same seed and one query each
        for (int j = 0; j < 3; j++) {
            double[][][] m1 = {{{means[0][0][j]}, {means[0][1][j]}, {means[0][2][j]}}};
            double[][][] v1 = {{{vars[0][0][j]}, {vars[0][1][j]}, {vars[0][2][j]}}};
            double[] one = new Predictor(c, tau, 400, 17).probabilities(m1, v1, 1, 1.0);
            for (int k = 0; k < c; k++) {
                assertEquals(got[j * c + k], one[k], 1e-15, "a query alone gets the same probabilities");
            }
            double s = 0;
            for (int k = 0; k < c; k++) {
                assertTrue(got[j * c + k] >= 0);
                s += got[j * c + k];
            }
            assertEquals(1.0, s, 1e-12);
        }
        // query 1 has every logit near -200/0.05: sigma underflows, the log-space fallback ranks the classes
        assertTrue(got[c + 2] > got[c] && got[c] > got[c + 1], "ordering by the (negative) logits");
        // zero variance: a point mass, so the probability equals the likelihood at the mean
        Predictor q = new Predictor(2, 0.7, 10, 1);
        double[] exact = LogisticSoftmax.probabilities(new double[]{0.4, -0.9}, 0.7);
        double[] mc = q.probabilities(new double[][][]{{{0.4}, {-0.9}}}, new double[][][]{{{0.0}, {0.0}}}, 1, 1.0);
        assertEquals(exact[0], mc[0], 1e-14);
    }
}
