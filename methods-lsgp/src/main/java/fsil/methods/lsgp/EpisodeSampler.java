package fsil.methods.lsgp;

import fsil.api.LabeledData;
import org.apache.commons.rng.UniformRandomProvider;

import java.util.ArrayList;
import java.util.List;

/**
 * Draws few-shot episodes from a set of labelled classes: {@code ways} classes uniformly without replacement, then
 * per class a uniformly random subset of shots + queries samples (queries capped by what the class has beyond its
 * shots; classes with fewer samples than shots + 1 are never drawn). Rows are class-blocked: every support row
 * first (class by class), then every query row.
 */
final class EpisodeSampler {
    /** One episode: row indices into the data (support then queries) and labels 0..ways-1. */
    record Episode(int[] rows, int[] labels, int supportSize) {
        int[] supportLabels() {
            return java.util.Arrays.copyOfRange(labels, 0, supportSize);
        }

        int[] queryLabels() {
            return java.util.Arrays.copyOfRange(labels, supportSize, labels.length);
        }
    }

    private final int[][] rowsOfClass;

    EpisodeSampler(LabeledData data, int[] classes) {
        List<int[]> usable = new ArrayList<>();
        int[] labels = data.labels();
        for (int c : classes) {
            int count = 0;
            for (int l : labels) {
                count += l == c ? 1 : 0;
            }
            int[] rows = new int[count];
            int at = 0;
            for (int i = 0; i < labels.length; i++) {
                if (labels[i] == c) {
                    rows[at++] = i;
                }
            }
            if (count >= 2) {
                usable.add(rows);
            }
        }
        this.rowsOfClass = usable.toArray(new int[0][]);
    }

    int classes() {
        return rowsOfClass.length;
    }

    int maxRows(int ways, int shots, int queries) {
        return ways * (shots + queries);
    }

    Episode sample(UniformRandomProvider rng, int ways, int shots, int queries) {
        if (ways > rowsOfClass.length) {
            throw new IllegalArgumentException(ways + " ways but only " + rowsOfClass.length + " usable classes");
        }
        int[] order = new int[rowsOfClass.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        for (int i = 0; i < ways; i++) {
            int j = i + rng.nextInt(order.length - i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[][] picked = new int[ways][];
        int total = 0;
        int support = 0;
        for (int k = 0; k < ways; k++) {
            int[] rows = rowsOfClass[order[k]];
            int s = Math.min(shots, rows.length - 1);
            int take = Math.min(rows.length, s + queries);
            int[] copy = rows.clone();
            for (int i = 0; i < take; i++) {
                int j = i + rng.nextInt(copy.length - i);
                int t = copy[i];
                copy[i] = copy[j];
                copy[j] = t;
            }
            picked[k] = java.util.Arrays.copyOf(copy, take);
            total += take;
            support += s;
        }
        int[] rows = new int[total];
        int[] labels = new int[total];
        int at = 0;
        for (int k = 0; k < ways; k++) {
            int s = Math.min(shots, rowsOfClass[order[k]].length - 1);
            for (int i = 0; i < s; i++) {
                rows[at] = picked[k][i];
                labels[at++] = k;
            }
        }
        for (int k = 0; k < ways; k++) {
            int s = Math.min(shots, rowsOfClass[order[k]].length - 1);
            for (int i = s; i < picked[k].length; i++) {
                rows[at] = picked[k][i];
                labels[at++] = k;
            }
        }
        return new Episode(rows, labels, support);
    }
}
