package fsil.data.io;

import fsil.api.InvalidDataException;

import java.nio.ByteOrder;

/**
 * The NumPy scalar types the readers accept: the float and integer kinds of a {@code descr} string such as
 * {@code <f4} or {@code >i8}, and NumPy unicode strings ({@code <U12}, {@code >U3}: UCS-4 code points, for
 * labels only). Structured, complex, byte-string and object dtypes are rejected.
 */
public enum NpyDType {
    INT8('i', 1), UINT8('u', 1), INT16('i', 2), UINT16('u', 2), INT32('i', 4), UINT32('u', 4), INT64('i', 8),
    UINT64('u', 8), FLOAT32('f', 4), FLOAT64('f', 8),
    /** NumPy unicode string ({@code U}): each element is a fixed number of UCS-4 code points. */
    UNICODE('U', 4);

    /** Longest accepted unicode element, in characters. */
    public static final int MAX_UNICODE_CHARS = 1 << 16;

    /** NumPy kind character: f (float), i (signed integer), u (unsigned integer), U (unicode string). */
    public final char kind;
    /** Bytes per element (per character for {@link #UNICODE}). */
    public final int size;

    NpyDType(char kind, int size) {
        this.kind = kind;
        this.size = size;
    }

    public boolean isFloat() {
        return kind == 'f';
    }

    /** The descr string NumPy writes for this type in the given byte order, e.g. {@code <f4} or {@code |u1}. */
    public String descr(ByteOrder order) {
        char o = size == 1 ? '|' : (order == ByteOrder.BIG_ENDIAN ? '>' : '<');
        return "" + o + kind + size;
    }

    /** A parsed descr: the type, the byte order and the bytes per element (characters x 4 for unicode). */
    public record Parsed(NpyDType type, ByteOrder order, int itemSize) {
    }

    /**
     * Parses a descr like {@code <f4}.
     *
     * @param source file name for error messages
     */
    public static Parsed parse(String descr, String source) {
        if (descr.length() < 3) {
            throw unsupported(descr, source);
        }
        char o = descr.charAt(0);
        char kind = descr.charAt(1);
        int size;
        try {
            size = Integer.parseInt(descr.substring(2));
        } catch (NumberFormatException e) {
            throw unsupported(descr, source);
        }
        NpyDType type = null;
        int itemSize = size;
        if (kind == 'U') {
            if (size < 0 || size > MAX_UNICODE_CHARS) {
                throw new InvalidDataException(source + ": unicode dtype '" + InputFiles.oneLine(descr, 40)
                        + "' is longer than " + MAX_UNICODE_CHARS + " characters per element");
            }
            type = UNICODE;
            itemSize = 4 * size;
        }
        for (NpyDType t : values()) {
            if (t != UNICODE && t.kind == kind && t.size == size) {
                type = t;
            }
        }
        if (type == null) {
            throw unsupported(descr, source);
        }
        ByteOrder order;
        switch (o) {
            case '<' -> order = ByteOrder.LITTLE_ENDIAN;
            case '>' -> order = ByteOrder.BIG_ENDIAN;
            case '|' -> {
                if (itemSize > 1 && type != UNICODE) {
                    throw new InvalidDataException(source + ": dtype '" + InputFiles.oneLine(descr, 40) + "' has no byte order although"
                            + " its elements have " + size + " bytes");
                }
                if (type == UNICODE && itemSize > 0) {
                    throw new InvalidDataException(source + ": unicode dtype '" + InputFiles.oneLine(descr, 40) + "' needs a byte order"
                            + " ('<' or '>')");
                }
                order = ByteOrder.LITTLE_ENDIAN;
            }
            // '=' (native) is never written by numpy.save; every platform we run on is little-endian.
            case '=' -> order = ByteOrder.nativeOrder();
            default -> throw unsupported(descr, source);
        }
        return new Parsed(type, order, itemSize);
    }

    private static InvalidDataException unsupported(String descr, String source) {
        return new InvalidDataException(source + ": unsupported dtype '" + InputFiles.oneLine(descr, 40)
                + "'; expected float32/float64 ('<f4', '<f8'), an integer type ('<i4', '<i8', '|u1', ...) or, for"
                + " labels, unicode ('<U10'). Convert with arr.astype(np.float32) before np.save.");
    }
}
