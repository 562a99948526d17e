package fsil.data.io;

import fsil.api.InvalidDataException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Maps labels as users have them to class ids 0..K-1 exactly as {@code np.unique(labels, return_inverse=True)}
 * does: the distinct values, sorted (integers numerically, text by Unicode code point), get ids 0, 1, ...; a
 * sample's id is the position of its label among them. Several label arrays (e.g. a training and a separate test
 * file) are encoded together over the union of their values. Nothing is allocated by label value, so a label of
 * 10^9 costs what a label of 1 costs.
 */
public final class LabelEncoder {

    private LabelEncoder() {
    }

    /** Code point order, the order NumPy sorts unicode arrays in (Java's String order compares UTF-16 units). */
    public static final Comparator<String> CODE_POINT_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    /** The encoding of one or more label arrays. */
    public static final class Encoding {
        private final List<String> names;
        private final List<int[]> ids;
        private final long[] intValues;
        private final Map<String, Integer> textIds;

        private Encoding(List<String> names, List<int[]> ids, long[] intValues, Map<String, Integer> textIds) {
            this.names = List.copyOf(names);
            this.ids = ids;
            this.intValues = intValues;
            this.textIds = textIds;
        }

        /** The original labels as text, by class id (integers in decimal). */
        public List<String> names() {
            return names;
        }

        /** Number of classes K. */
        public int size() {
            return names.size();
        }

        /** Class ids (0..K-1) of the labels of part {@code part}, in the order the parts were given. */
        public int[] ids(int part) {
            return ids.get(part);
        }

        /** Whether the original labels are text. */
        public boolean isText() {
            return intValues == null;
        }

        /** The original integer label of each class id (null for text labels). */
        public long[] intValues() {
            return intValues == null ? null : intValues.clone();
        }

        /**
         * The class id of an original label written as text (a token of a split file): a decimal integer for
         * integer labels, the label itself for text labels; -1 when no sample has that label.
         */
        public int idOf(String label) {
            if (intValues != null) {
                long v;
                try {
                    v = Long.parseLong(label.startsWith("+") ? label.substring(1) : label);
                } catch (NumberFormatException e) {
                    return -1;
                }
                int at = Arrays.binarySearch(intValues, v);
                return at >= 0 ? at : -1;
            }
            Integer id = textIds.get(label);
            return id == null ? -1 : id;
        }
    }

    /** Encodes one label array. */
    public static Encoding encode(RawLabels labels) {
        return encode(List.of(labels));
    }

    /**
     * Encodes several label arrays over the union of their values.
     *
     * @throws InvalidDataException when some parts hold integers and others text
     */
    public static Encoding encode(List<RawLabels> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no labels to encode");
        }
        boolean text = parts.get(0).isText();
        for (RawLabels p : parts) {
            if (p.isText() != text) {
                throw new InvalidDataException(p.source() + ": labels are " + (p.isText() ? "text" : "integers")
                        + " but " + parts.get(0).source() + " holds " + (text ? "text" : "integers")
                        + "; use one kind of label for every file");
            }
        }
        return text ? encodeTexts(parts) : encodeInts(parts);
    }

    private static Encoding encodeInts(List<RawLabels> parts) {
        long total = 0;
        for (RawLabels p : parts) {
            total += p.size();
        }
        long[] all = new long[Math.toIntExact(total)];
        int at = 0;
        for (RawLabels p : parts) {
            System.arraycopy(p.ints(), 0, all, at, p.size());
            at += p.size();
        }
        Arrays.sort(all);
        int k = 0;
        for (int i = 0; i < all.length; i++) {
            if (i == 0 || all[i] != all[i - 1]) {
                all[k++] = all[i];
            }
        }
        long[] unique = Arrays.copyOf(all, k);
        List<String> names = new ArrayList<>(k);
        for (long v : unique) {
            names.add(Long.toString(v));
        }
        List<int[]> ids = new ArrayList<>();
        for (RawLabels p : parts) {
            long[] v = p.ints();
            int[] out = new int[v.length];
            for (int i = 0; i < v.length; i++) {
                out[i] = Arrays.binarySearch(unique, v[i]);
            }
            ids.add(out);
        }
        return new Encoding(names, ids, unique, null);
    }

    private static Encoding encodeTexts(List<RawLabels> parts) {
        TreeSet<String> distinct = new TreeSet<>(CODE_POINT_ORDER);
        for (RawLabels p : parts) {
            distinct.addAll(Arrays.asList(p.texts()));
        }
        List<String> names = new ArrayList<>(distinct);
        Map<String, Integer> byName = new HashMap<>();
        for (int k = 0; k < names.size(); k++) {
            byName.put(names.get(k), k);
        }
        List<int[]> ids = new ArrayList<>();
        for (RawLabels p : parts) {
            String[] v = p.texts();
            int[] out = new int[v.length];
            for (int i = 0; i < v.length; i++) {
                out[i] = byName.get(v[i]);
            }
            ids.add(out);
        }
        return new Encoding(names, ids, null, byName);
    }
}
