package fsil.data.io;

import java.util.Arrays;

/**
 * Labels as a file holds them, before they become class ids: integers (any 64-bit value, e.g. 100, 103, 1e9 or
 * -1) or text (NumPy unicode arrays, string columns of a CSV file). {@link LabelEncoder} maps them to 0..K-1.
 */
public final class RawLabels {
    private final String source;
    private final long[] ints;
    private final String[] texts;

    private RawLabels(String source, long[] ints, String[] texts) {
        this.source = source;
        this.ints = ints;
        this.texts = texts;
    }

    /** Integer labels read from {@code source}. */
    public static RawLabels ofInts(String source, long[] values) {
        return new RawLabels(source, values.clone(), null);
    }

    /** Text labels read from {@code source}. */
    public static RawLabels ofTexts(String source, String[] values) {
        return new RawLabels(source, null, values.clone());
    }

    /** Where the labels came from. */
    public String source() {
        return source;
    }

    public int size() {
        return ints != null ? ints.length : texts.length;
    }

    /** Whether the labels are text (otherwise integers). */
    public boolean isText() {
        return texts != null;
    }

    long[] ints() {
        return ints;
    }

    String[] texts() {
        return texts;
    }

    @Override
    public String toString() {
        return "RawLabels[" + source + ", " + size() + (isText() ? " texts " + Arrays.toString(
                Arrays.copyOf(texts, Math.min(5, texts.length))) : " ints") + "]";
    }
}
