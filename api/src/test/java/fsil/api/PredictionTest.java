package fsil.api;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PredictionTest {

    @Test
    void rowsMustBeFiniteNonNegativeAndSumToOneWithinTheTolerance() {
        int[] c = {3, 8};
        double t = Prediction.SUM_TOLERANCE;
        assertEquals(1e-6, t);
        Prediction.of(c, new double[]{0.5, 0.5 + 0.9 * t});
        Prediction.of(c, new double[]{0.5, 0.5 - 0.9 * t});
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(c, new double[]{0.5, 0.5 + 2 * t}));
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(c, new double[]{0.5, 0.5 - 2 * t}));
        Prediction.of(c, new double[]{0, 1});
        Prediction.of(c, new double[]{-0.0, 1});
        for (double bad : new double[]{Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -1e-300}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Prediction.of(c, new double[]{0.5, 0.5, 1, bad}), "" + bad);
            assertEquals("probability of class 8 for query 1 is " + bad, e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(c, new double[]{1.5, -0.5}),
                "a row summing to 1 with a negative entry");
        IllegalArgumentException sum = assertThrows(IllegalArgumentException.class,
                () -> Prediction.of(c, new double[]{1, 0, 0.25, 0.25}));
        assertEquals("probabilities of query 1 sum to 0.5, not 1", sum.getMessage());
    }

    @Test
    void classesAreSortedDistinctAndMatchTheRowLength() {
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(new int[]{8, 3}, new double[]{0.5, 0.5}));
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(new int[]{3, 3}, new double[]{0.5, 0.5}));
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(new int[]{}, new double[]{}));
        assertThrows(IllegalArgumentException.class, () -> Prediction.of(new int[]{1, 2}, new double[]{1, 0, 1}));
        assertEquals(0, Prediction.of(new int[]{1, 2}, new double[0]).size(), "no queries is a prediction");
    }

    @Test
    void accessorsReadTheRowsAndDoNotExposeTheClasses() {
        int[] c = {2, 5, 9};
        double[] probs = {0.2, 0.5, 0.3, 0.4, 0.4, 0.2};
        Prediction p = Prediction.of(c, probs);
        c[0] = 100;
        assertArrayEquals(new int[]{2, 5, 9}, p.classes(), "the classes were copied");
        p.classes()[0] = 100;
        assertEquals(2, p.classAt(0));
        assertSame(probs, p.rawProbabilities(), "the probabilities are taken over, not copied");
        assertEquals(2, p.size());
        assertEquals(3, p.numClasses());
        assertEquals(0.3, p.probability(0, 2));
        assertEquals(0.3, p.probabilityOfClass(0, 9));
        assertEquals(0.0, p.probabilityOfClass(0, 4), "a class that is not a column");
        assertArrayEquals(new double[]{0.4, 0.4, 0.2}, p.row(1));
        assertArrayEquals(new int[]{5, 2}, p.labels(), "ties go to the smaller id");
        assertArrayEquals(new double[]{0.5, 0.4}, p.confidences());
    }

    @Test
    void randomValidPredictionsAreAcceptedAndTheirLabelsAreTheArgmax() {
        Random rnd = new Random(5);
        for (int trial = 0; trial < 500; trial++) {
            int k = 1 + rnd.nextInt(12);
            int n = rnd.nextInt(20);
            int[] classes = rnd.ints(0, 1000).distinct().limit(k).sorted().toArray();
            double[] probs = new double[n * k];
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int j = 0; j < k; j++) {
                    probs[i * k + j] = rnd.nextInt(4) == 0 ? 0 : Math.exp(rnd.nextGaussian() * 5);
                    s += probs[i * k + j];
                }
                for (int j = 0; j < k; j++) {
                    probs[i * k + j] = s == 0 ? (j == 0 ? 1 : 0) : probs[i * k + j] / s;
                }
            }
            Prediction p = Prediction.of(classes, probs.clone());
            for (int i = 0; i < n; i++) {
                double[] row = Arrays.copyOfRange(probs, i * k, (i + 1) * k);
                int best = 0;
                for (int j = 1; j < k; j++) {
                    best = row[j] > row[best] ? j : best;
                }
                assertEquals(classes[best], p.labels()[i]);
                assertEquals(row[best], p.confidences()[i]);
                assertArrayEquals(row, p.row(i));
            }
            if (n > 0) {
                double[] broken = probs.clone();
                int at = rnd.nextInt(broken.length);
                broken[at] += 1e-4;
                assertThrows(IllegalArgumentException.class, () -> Prediction.of(classes, broken));
                if (k > 1) {
                    int[] unsorted = classes.clone();
                    unsorted[0] = unsorted[k - 1];
                    assertThrows(IllegalArgumentException.class, () -> Prediction.of(unsorted, probs.clone()));
                }
            }
            assertTrue(p.size() == n);
        }
    }
}
