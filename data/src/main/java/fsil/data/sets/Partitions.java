package fsil.data.sets;

import fsil.api.InvalidDataException;
import fsil.api.LabeledData;
import fsil.core.random.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Train/test partitions of labelled data. */
public final class Partitions {

    private Partitions() {
    }

    /** The two parts of a partition. */
    public record TrainTest(LabeledData train, LabeledData test) {
    }

    /** Splits {@code all} into the samples not listed in {@code testIndices} (train) and those listed (test). */
    public static TrainTest byTestIndices(LabeledData all, int[] testIndices, String source) {
        boolean[] isTest = new boolean[all.size()];
        for (int i : testIndices) {
            if (i < 0 || i >= all.size()) {
                throw new InvalidDataException(source + ": test index " + i + " is out of range; the data has "
                        + all.size() + " samples");
            }
            if (isTest[i]) {
                throw new InvalidDataException(source + ": test index " + i + " is listed twice");
            }
            isTest[i] = true;
        }
        int[] train = new int[all.size() - testIndices.length];
        int[] test = new int[testIndices.length];
        int a = 0;
        int b = 0;
        for (int i = 0; i < all.size(); i++) {
            if (isTest[i]) {
                test[b++] = i;
            } else {
                train[a++] = i;
            }
        }
        return new TrainTest(all.select(train), all.select(test));
    }

    /**
     * A stratified test selection: for each class (ascending id), its samples in file order are shuffled with a
     * stream derived from {@code seed} and the class id, and the first round(fraction x count) become test
     * samples (at least one training sample is always kept). Returns the sorted test indices.
     */
    public static int[] stratifiedTestIndices(int[] labels, double fraction, long seed) {
        // (label, index) pairs sorted: the samples of each class in file order, classes ascending. Nothing is
        // allocated by label value, so sparse labels (e.g. 10^9) cost nothing extra.
        long[] keyed = new long[labels.length];
        for (int i = 0; i < labels.length; i++) {
            keyed[i] = ((long) labels[i] << 32) | i;
        }
        Arrays.sort(keyed);
        List<Integer> test = new ArrayList<>();
        for (int from = 0; from < keyed.length; ) {
            int c = (int) (keyed[from] >> 32);
            int to = from;
            while (to < keyed.length && (int) (keyed[to] >> 32) == c) {
                to++;
            }
            int[] idx = new int[to - from];
            for (int j = 0; j < idx.length; j++) {
                idx[j] = (int) keyed[from + j];
            }
            UniformRandomProvider rng = RandomStreams.child(seed, c);
            RandomStreams.shuffle(idx, rng);
            int k = Math.min((int) Math.round(fraction * idx.length), idx.length - 1);
            for (int j = 0; j < k; j++) {
                test.add(idx[j]);
            }
            from = to;
        }
        return test.stream().mapToInt(Integer::intValue).sorted().toArray();
    }
}
