package fsil.eval.protocol;

import fsil.api.FeatureMatrix;
import fsil.api.LabeledData;

import java.util.Arrays;
import java.util.List;

/** Row indices of each class in a {@link LabeledData}, in row order. Immutable. */
final class ClassIndex {
    private final int[][] rowsByClass;

    ClassIndex(LabeledData data) {
        int max = -1;
        for (int y : data.labels()) {
            max = Math.max(max, y);
        }
        int[] counts = new int[max + 1];
        for (int y : data.labels()) {
            counts[y]++;
        }
        rowsByClass = new int[max + 1][];
        for (int c = 0; c <= max; c++) {
            rowsByClass[c] = new int[counts[c]];
        }
        int[] fill = new int[max + 1];
        int[] y = data.labels();
        for (int i = 0; i < y.length; i++) {
            rowsByClass[y[i]][fill[y[i]]++] = i;
        }
    }

    /** Rows of a class (empty if absent). Do not modify. */
    int[] rows(int classId) {
        return classId < rowsByClass.length ? rowsByClass[classId] : new int[0];
    }

    int count(int classId) {
        return rows(classId).length;
    }

    /** All rows of the given classes, class by class in the given order. */
    int[] rowsOf(int[] classes) {
        int n = 0;
        for (int c : classes) {
            n += count(c);
        }
        int[] out = new int[n];
        int at = 0;
        for (int c : classes) {
            int[] r = rows(c);
            System.arraycopy(r, 0, out, at, r.length);
            at += r.length;
        }
        return out;
    }

    /** The rows of the given classes of {@code data} (indexed by this), class by class. */
    LabeledData select(LabeledData data, int[] classes) {
        return data.select(rowsOf(classes));
    }

    /** Concatenation of two labelled sets (train then test), for protocols that pool all samples of a class. */
    static LabeledData concat(LabeledData a, LabeledData b) {
        return LabeledData.concat(List.of(a, b));
    }
}
