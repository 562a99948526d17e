package fsil.data.io;

import fsil.api.InvalidDataException;

import java.nio.ByteOrder;

/**
 * The NumPy scalar types the readers accept: the float and integer kinds of a {@code descr} string such as
 * {@code <f4} or {@code >i8}. Structured, complex, string and object dtypes are rejected.
 */
public enum NpyDType {
    INT8('i', 1), UINT8('u', 1), INT16('i', 2), UINT16('u', 2), INT32('i', 4), UINT32('u', 4), INT64('i', 8),
    UINT64('u', 8), FLOAT32('f', 4), FLOAT64('f', 8);

    /** NumPy kind character: f (float), i (signed integer), u (unsigned integer). */
    public final char kind;
    /** Bytes per element. */
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

    /** A parsed descr: the type and the byte order. */
    public record Parsed(NpyDType type, ByteOrder order) {
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
        for (NpyDType t : values()) {
            if (t.kind == kind && t.size == size) {
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
                if (size != 1) {
                    throw new InvalidDataException(source + ": dtype '" + descr + "' has no byte order although"
                            + " its elements have " + size + " bytes");
                }
                order = ByteOrder.LITTLE_ENDIAN;
            }
            // '=' (native) is never written by numpy.save; every platform we run on is little-endian.
            case '=' -> order = ByteOrder.nativeOrder();
            default -> throw unsupported(descr, source);
        }
        return new Parsed(type, order);
    }

    private static InvalidDataException unsupported(String descr, String source) {
        return new InvalidDataException(source + ": unsupported dtype '" + descr + "'; expected float32/float64"
                + " ('<f4', '<f8') or an integer type ('<i4', '<i8', '|u1', ...). Convert with"
                + " arr.astype(np.float32) before np.save.");
    }
}
