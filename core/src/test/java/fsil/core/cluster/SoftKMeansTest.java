package fsil.core.cluster;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SoftKMeansTest {

    private static double[] softmax2(double a, double b) {
        double m = Math.max(a, b);
        double ea = Math.exp(a - m);
        double eb = Math.exp(b - m);
        return new double[]{ea / (ea + eb), eb / (ea + eb)};
    }

    @Test
    void twoRoundsMatchHandComputation() {
        // 1-D: support 0 (class 0) and 4 (class 1), queries 1 and 3.5, T = 1
        double[] x = {0, 4, 1, 3.5};
        int[] support = {0, 1};
        double[] r = SoftKMeans.run(x, 4, 1, support, 2, 1.0, 2);
        // round 1 from the support means (0, 4)
        double[] q1 = softmax2(-1, -9);
        double[] q2 = softmax2(-12.25, -0.25);
        // centroids re-estimated over all rows (support weight 1)
        double mu0 = (0 + 1 * q1[0] + 3.5 * q2[0]) / (1 + q1[0] + q2[0]);
        double mu1 = (4 + 1 * q1[1] + 3.5 * q2[1]) / (1 + q1[1] + q2[1]);
        double[] e1 = softmax2(-(1 - mu0) * (1 - mu0), -(1 - mu1) * (1 - mu1));
        double[] e2 = softmax2(-(3.5 - mu0) * (3.5 - mu0), -(3.5 - mu1) * (3.5 - mu1));
        assertArrayEquals(new double[]{1, 0, 0, 1, e1[0], e1[1], e2[0], e2[1]}, r, 1e-15);
    }

    @Test
    void supportRowsStayOneHotEvenWhenTheDataDisagrees() {
        // support rows placed at the other class's centre
        SplittableRandom rnd = new SplittableRandom(1);
        int k = 3;
        int p = 4;
        int n = 20;
        double[] x = new double[n * p];
        for (int i = 0; i < x.length; i++) {
            x[i] = rnd.nextGaussian();
        }
        int[] support = {2, 0, 1, 2, 0, 1};
        double[] r = SoftKMeans.run(x, n, p, support, k, 50.0, 5);
        for (int i = 0; i < support.length; i++) {
            for (int c = 0; c < k; c++) {
                assertEquals(c == support[i] ? 1.0 : 0.0, r[i * k + c], 0.0);
            }
        }
        for (int i = support.length; i < n; i++) {
            double s = 0;
            for (int c = 0; c < k; c++) {
                s += r[i * k + c];
            }
            assertEquals(1, s, 1e-14);
        }
    }
}
