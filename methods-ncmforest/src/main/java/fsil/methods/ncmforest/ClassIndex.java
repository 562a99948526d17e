package fsil.methods.ncmforest;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Maps global class ids to dense internal indices 0..C-1 in order of first appearance, so that per-class arrays
 * can grow as classes arrive, and gives the sorted column order a {@link fsil.api.Prediction} needs.
 */
final class ClassIndex {
    private final Map<Integer, Integer> internal = new HashMap<>();
    private int[] globalOf = new int[0];

    int size() {
        return globalOf.length;
    }

    /** Internal indices of {@code labels}, registering unseen ids in ascending id order. */
    int[] intern(int[] labels) {
        int[] distinct = Arrays.stream(labels).distinct().sorted().toArray();
        for (int g : distinct) {
            if (!internal.containsKey(g)) {
                internal.put(g, globalOf.length);
                globalOf = Arrays.copyOf(globalOf, globalOf.length + 1);
                globalOf[globalOf.length - 1] = g;
            }
        }
        int[] out = new int[labels.length];
        for (int i = 0; i < labels.length; i++) {
            out[i] = internal.get(labels[i]);
        }
        return out;
    }

    int global(int internalIndex) {
        return globalOf[internalIndex];
    }

    /** The global ids, sorted ascending (prediction columns). */
    int[] sortedGlobal() {
        int[] g = globalOf.clone();
        Arrays.sort(g);
        return g;
    }

    /** Column of each internal index in {@link #sortedGlobal()}. */
    int[] columnOfInternal() {
        int[] sorted = sortedGlobal();
        int[] col = new int[globalOf.length];
        for (int k = 0; k < globalOf.length; k++) {
            col[k] = Arrays.binarySearch(sorted, globalOf[k]);
        }
        return col;
    }
}
