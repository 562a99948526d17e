package fsil.api;

import java.util.Arrays;

/**
 * Class probabilities for a batch of queries: row i is a probability vector over {@link #classes()} (sorted
 * global class ids). Every method returns probabilities, not just labels, so calibration can be measured for
 * all of them. The constructor checks that every row is finite, non-negative and sums to 1 (within 1e-6).
 */
public final class Prediction {
    /** Tolerance on each row's sum. */
    public static final double SUM_TOLERANCE = 1e-6;

    private final int[] classes;
    private final double[] probabilities;
    private final int rows;

    private Prediction(int[] classes, double[] probabilities, int rows) {
        this.classes = classes;
        this.probabilities = probabilities;
        this.rows = rows;
    }

    /**
     * @param classes       sorted, distinct global class ids (the columns)
     * @param probabilities row-major rows x classes.length probabilities; the array is taken over, not copied
     */
    public static Prediction of(int[] classes, double[] probabilities) {
        int c = classes.length;
        if (c == 0) {
            throw new IllegalArgumentException("a prediction needs at least one class");
        }
        for (int k = 1; k < c; k++) {
            if (classes[k] <= classes[k - 1]) {
                throw new IllegalArgumentException("prediction classes must be sorted and distinct: " + Arrays.toString(classes));
            }
        }
        if (probabilities.length % c != 0) {
            throw new IllegalArgumentException("probabilities length " + probabilities.length + " is not a multiple of "
                    + c + " classes");
        }
        int n = probabilities.length / c;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < c; k++) {
                double p = probabilities[i * c + k];
                if (!(p >= 0) || !Double.isFinite(p)) {
                    throw new IllegalArgumentException("probability of class " + classes[k] + " for query " + i + " is " + p);
                }
                s += p;
            }
            if (Math.abs(s - 1) > SUM_TOLERANCE) {
                throw new IllegalArgumentException("probabilities of query " + i + " sum to " + s + ", not 1");
            }
        }
        return new Prediction(classes.clone(), probabilities, n);
    }

    /** Number of queries. */
    public int size() {
        return rows;
    }

    public int numClasses() {
        return classes.length;
    }

    /** The column class ids (a copy). */
    public int[] classes() {
        return classes.clone();
    }

    public int classAt(int column) {
        return classes[column];
    }

    /** Probability that query {@code row} belongs to the class in {@code column}. */
    public double probability(int row, int column) {
        return probabilities[row * classes.length + column];
    }

    /** Probability of a class id, 0 if the class is not among the columns. */
    public double probabilityOfClass(int row, int classId) {
        int col = Arrays.binarySearch(classes, classId);
        return col < 0 ? 0 : probability(row, col);
    }

    /** Copy of one row. */
    public double[] row(int row) {
        return Arrays.copyOfRange(probabilities, row * classes.length, (row + 1) * classes.length);
    }

    /** The most probable class id of each query (ties go to the smaller id). */
    public int[] labels() {
        int[] out = new int[rows];
        for (int i = 0; i < rows; i++) {
            out[i] = classes[argmax(i)];
        }
        return out;
    }

    /** Max-probability confidence of each query. */
    public double[] confidences() {
        double[] out = new double[rows];
        for (int i = 0; i < rows; i++) {
            out[i] = probability(i, argmax(i));
        }
        return out;
    }

    /** Column of the most probable class of a row (the first one on ties). */
    public int argmax(int row) {
        int c = classes.length;
        int best = 0;
        double bestP = probabilities[row * c];
        for (int k = 1; k < c; k++) {
            double p = probabilities[row * c + k];
            if (p > bestP) {
                bestP = p;
                best = k;
            }
        }
        return best;
    }

    /** Raw row-major probabilities (read-only by contract). */
    public double[] rawProbabilities() {
        return probabilities;
    }
}
