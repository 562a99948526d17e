package fsil.api;

import java.util.Arrays;
import java.util.List;

/**
 * Features with one integer class label per row. Labels are global class ids of the dataset (not 0..K-1 within
 * an episode): methods must accept any non-negative ids.
 */
public record LabeledData(FeatureMatrix features, int[] labels) {

    public LabeledData {
        if (features.rows() != labels.length) {
            throw new InvalidDataException("features have " + features.rows() + " rows but there are "
                    + labels.length + " labels: every row needs exactly one label");
        }
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0) {
                throw new InvalidDataException("label " + labels[i] + " at row " + i + " is negative: class ids must be >= 0");
            }
        }
    }

    public static LabeledData empty(int dimension) {
        return new LabeledData(FeatureMatrix.empty(dimension), new int[0]);
    }

    public int size() {
        return labels.length;
    }

    public int dimension() {
        return features.cols();
    }

    public boolean isEmpty() {
        return labels.length == 0;
    }

    /** The distinct labels, sorted ascending. */
    public int[] classes() {
        return Arrays.stream(labels).distinct().sorted().toArray();
    }

    /** The rows at the given indices with their labels. */
    public LabeledData select(int[] indices) {
        int[] y = new int[indices.length];
        for (int i = 0; i < indices.length; i++) {
            y[i] = labels[indices[i]];
        }
        return new LabeledData(features.selectRows(indices), y);
    }

    /** The rows of every part, in order (a part with one element is returned as it is). */
    public static LabeledData concat(List<LabeledData> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("concat needs at least one part");
        }
        if (parts.size() == 1) {
            return parts.get(0);
        }
        int d = parts.get(0).dimension();
        int n = 0;
        for (LabeledData p : parts) {
            if (p.dimension() != d) {
                throw new InvalidDataException("cannot concatenate features of dimension " + d + " and " + p.dimension());
            }
            n += p.size();
        }
        float[] x = new float[Math.multiplyExact(n, d)];
        int[] y = new int[n];
        int row = 0;
        for (LabeledData p : parts) {
            System.arraycopy(p.features().rawData(), 0, x, row * d, p.size() * d);
            System.arraycopy(p.labels(), 0, y, row, p.size());
            row += p.size();
        }
        return new LabeledData(FeatureMatrix.wrap(n, d, x), y);
    }

    /** Throws {@link InvalidDataException} if any feature is NaN/Inf. */
    public LabeledData requireFinite(String what) {
        features.requireFinite(what);
        return this;
    }

    @Override
    public String toString() {
        return "LabeledData[" + size() + " x " + dimension() + ", " + classes().length + " classes]";
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }
}
