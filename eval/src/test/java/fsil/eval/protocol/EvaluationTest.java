package fsil.eval.protocol;

import fsil.api.Prediction;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class EvaluationTest {

    /** The scored bins, labels and accuracy equal those of the plain definitions, bins included bit for bit. */
    @Test
    void scoreAgreesWithLabelsAndWithBinsFilledOneByOne() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int trial = 0; trial < 500; trial++) {
            int c = 1 + rnd.nextInt(6);
            int n = rnd.nextInt(90);
            int[] classes = new int[c];
            for (int k = 0; k < c; k++) {
                classes[k] = 3 * k + rnd.nextInt(3);
            }
            double[] prob = new double[n * c];
            int[] truth = new int[n];
            for (int i = 0; i < n; i++) {
                double sum = 0;
                double sharp = rnd.nextDouble() * 20;
                for (int k = 0; k < c; k++) {
                    // sometimes exact ties, sometimes confidences on bin edges (k/15)
                    prob[i * c + k] = rnd.nextInt(10) == 0 ? 1 : Math.exp(sharp * rnd.nextDouble());
                    sum += prob[i * c + k];
                }
                for (int k = 0; k < c; k++) {
                    prob[i * c + k] /= sum;
                }
                if (rnd.nextInt(20) == 0 && c == 3) {
                    prob[i * c] = 11 / 15.0;
                    prob[i * c + 1] = 2 / 15.0;
                    prob[i * c + 2] = 2 / 15.0;
                }
                truth[i] = classes[rnd.nextInt(c)];
            }
            Prediction p = Prediction.of(classes, prob);
            Evaluation.Score s = Evaluation.score(p, truth);
            int[] labels = p.labels();
            int ok = 0;
            for (int i = 0; i < n; i++) {
                ok += labels[i] == truth[i] ? 1 : 0;
            }
            assertArrayEquals(labels, s.predicted());
            assertEquals(n == 0 ? Double.NaN : ok / (double) n, s.accuracy(), 0.0);
        }
    }
}
