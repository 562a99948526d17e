package fsil.data.io;

import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An n-dimensional array read from a {@code .npy} file (or an entry of an {@code .npz} archive): its shape,
 * element type, memory order and raw data bytes. Conversions to feature matrices and label vectors check the
 * shape and (for features) that every value is finite, and name the source in every error.
 */
public final class NpyArray {
    private final String source;
    private final int[] shape;
    private final NpyDType dtype;
    private final int itemSize;
    private final boolean fortranOrder;
    private final ByteBuffer data;

    NpyArray(String source, int[] shape, NpyDType dtype, int itemSize, ByteOrder order, boolean fortranOrder,
             byte[] data) {
        this.source = source;
        this.shape = shape.clone();
        this.dtype = dtype;
        this.itemSize = itemSize;
        this.fortranOrder = fortranOrder;
        this.data = ByteBuffer.wrap(data).order(order);
    }

    /** Where the array came from (file name, or {@code archive.npz!entry.npy}). */
    public String source() {
        return source;
    }

    public int[] shape() {
        return shape.clone();
    }

    public NpyDType dtype() {
        return dtype;
    }

    public boolean fortranOrder() {
        return fortranOrder;
    }

    /** Number of elements (product of the shape). */
    public int size() {
        long n = 1;
        for (int s : shape) {
            n *= s;
        }
        return (int) n;
    }

    /** Element {@code flat} in storage order, as a double. */
    private double element(int flat) {
        int at = flat * dtype.size;
        return switch (dtype) {
            case INT8 -> data.get(at);
            case UINT8 -> data.get(at) & 0xFF;
            case INT16 -> data.getShort(at);
            case UINT16 -> data.getShort(at) & 0xFFFF;
            case INT32 -> data.getInt(at);
            case UINT32 -> data.getInt(at) & 0xFFFFFFFFL;
            case INT64 -> data.getLong(at);
            case UINT64 -> {
                long v = data.getLong(at);
                yield v >= 0 ? v : (double) (v >>> 1) * 2.0;
            }
            case FLOAT32 -> data.getFloat(at);
            case FLOAT64 -> data.getDouble(at);
            case UNICODE -> throw new IllegalStateException("unicode elements are not numbers");
        };
    }

    /**
     * The array as an n x d float32 feature matrix. A 2-d array maps directly; a 1-d array becomes n x 1; arrays
     * with more dimensions (e.g. n x 28 x 28 images) are flattened per sample in C order.
     *
     * @throws InvalidDataException on NaN/Inf (with row and column), 0-d arrays, no rows, no columns (shape
     *                              (n, 0)), strings, or float64 values that overflow float32
     */
    public FeatureMatrix toFeatureMatrix() {
        if (shape.length == 0) {
            throw new InvalidDataException(source + ": expected a 2-d array (samples x features) but got a scalar");
        }
        if (dtype == NpyDType.UNICODE) {
            throw new InvalidDataException(source + ": features must be numbers, got a unicode string array");
        }
        int n = shape[0];
        if (n == 0) {
            throw new InvalidDataException(source + ": features of shape " + NpyReader.shapeString(shape)
                    + " have no samples");
        }
        long dLong = 1;
        for (int k = 1; k < shape.length; k++) {
            dLong *= shape[k]; // n * dLong elements fit in the data, so this cannot overflow once n >= 1
        }
        if (dLong == 0) {
            throw new InvalidDataException(source + ": features of shape " + NpyReader.shapeString(shape)
                    + " have no feature columns");
        }
        int d = (int) dLong;
        float[] out = new float[n * d];
        if (!fortranOrder || shape.length == 1) {
            for (int i = 0; i < out.length; i++) {
                out[i] = checked(element(i), i / Math.max(d, 1), d == 0 ? 0 : i % d);
            }
        } else {
            // Fortran order: the first index varies fastest. Map every C-order position to its storage position.
            int[] idx = new int[shape.length];
            for (int i = 0; i < out.length; i++) {
                int rem = i;
                for (int k = shape.length - 1; k >= 0; k--) {
                    idx[k] = rem % shape[k];
                    rem /= shape[k];
                }
                int flat = 0;
                for (int k = shape.length - 1; k >= 0; k--) {
                    flat = flat * shape[k] + idx[k];
                }
                out[i] = checked(element(flat), i / d, i % d);
            }
        }
        return FeatureMatrix.wrap(n, d, out);
    }

    private float checked(double v, int row, int col) {
        if (!Double.isFinite(v)) {
            throw new InvalidDataException(source + ": value " + v + " at row " + row + ", column " + col
                    + " is not finite; features must not contain NaN or Inf");
        }
        float f = (float) v;
        if (!Float.isFinite(f)) {
            throw new InvalidDataException(source + ": value " + v + " at row " + row + ", column " + col
                    + " overflows float32");
        }
        return f;
    }

    /**
     * The array as a vector of non-negative integer class labels. Accepts integer dtypes, and float dtypes whose
     * values are all whole numbers; shape (n) or (n, 1).
     */
    public int[] toLabels() {
        checkLabelShape();
        if (dtype == NpyDType.UNICODE) {
            throw new InvalidDataException(source + ": expected integer labels, got a unicode string array");
        }
        int n = shape[0];
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            double v = element(i);
            if (!Double.isFinite(v) || v != Math.rint(v)) {
                throw new InvalidDataException(source + ": label " + v + " at index " + i + " is not an integer");
            }
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw new InvalidDataException(source + ": label " + (long) v + " at index " + i
                        + " is out of range; class ids must be in 0.." + Integer.MAX_VALUE);
            }
            out[i] = (int) v;
        }
        return out;
    }

    private void checkLabelShape() {
        if (!(shape.length == 1 || (shape.length == 2 && shape[1] == 1))) {
            throw new InvalidDataException(source + ": labels must be a 1-d array of n values, got shape "
                    + NpyReader.shapeString(shape));
        }
    }

    /** Largest integer a float label may hold exactly (2^53). */
    private static final double MAX_EXACT_FLOAT_LABEL = 9007199254740992.0;

    /**
     * The array as labels the way users have them: integers of any value (integer dtypes, or float dtypes whose
     * values are all whole numbers up to 2^53 in magnitude) or text (NumPy unicode arrays {@code <U..}/{@code
     * >U..}, trailing NULs removed as NumPy does); shape (n) or (n, 1). {@link LabelEncoder} maps them to class ids.
     */
    public RawLabels toLabelValues() {
        checkLabelShape();
        int n = shape[0];
        if (dtype == NpyDType.UNICODE) {
            String[] out = new String[n];
            int chars = itemSize / 4;
            int[] cps = new int[chars];
            for (int i = 0; i < n; i++) {
                int len = 0;
                for (int c = 0; c < chars; c++) {
                    int cp = data.getInt(i * itemSize + 4 * c);
                    if (cp != 0) {
                        len = c + 1;
                    }
                    cps[c] = cp;
                }
                for (int c = 0; c < len; c++) {
                    if (cps[c] < 0 || cps[c] > Character.MAX_CODE_POINT
                            || (cps[c] >= Character.MIN_SURROGATE && cps[c] <= Character.MAX_SURROGATE)) {
                        throw new InvalidDataException(source + ": label at index " + i + " holds an invalid"
                                + " character code " + Integer.toUnsignedString(cps[c]) + " at position " + c);
                    }
                }
                out[i] = new String(cps, 0, len);
            }
            return RawLabels.ofTexts(source, out);
        }
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            int at = i * dtype.size;
            long v;
            if (dtype == NpyDType.INT64) {
                v = data.getLong(at);
            } else if (dtype == NpyDType.UINT64) {
                v = data.getLong(at);
                if (v < 0) {
                    throw new InvalidDataException(source + ": label " + Long.toUnsignedString(v) + " at index " + i
                            + " is out of range; integer labels must fit in int64");
                }
            } else {
                double d = element(i);
                if (!Double.isFinite(d) || d != Math.rint(d)) {
                    throw new InvalidDataException(source + ": label " + d + " at index " + i + " is not an integer");
                }
                if (Math.abs(d) > MAX_EXACT_FLOAT_LABEL) {
                    throw new InvalidDataException(source + ": float label " + d + " at index " + i + " is beyond"
                            + " 2^53, where floats no longer hold every integer; save integer labels");
                }
                v = (long) d;
            }
            out[i] = v;
        }
        return RawLabels.ofInts(source, out);
    }

    /** The raw uint8 bytes in C order (for image caches stored as {@code |u1}). */
    public byte[] toUint8() {
        if (dtype != NpyDType.UINT8 || (fortranOrder && shape.length > 1)) {
            throw new InvalidDataException(source + ": expected a C-order uint8 array, got " + dtype
                    + (fortranOrder ? " (Fortran order)" : ""));
        }
        return data.array().clone();
    }

    @Override
    public String toString() {
        return "NpyArray[" + source + ", " + dtype + (dtype == NpyDType.UNICODE ? "" + itemSize / 4 : "") + " "
                + Arrays.toString(shape) + (fortranOrder ? ", F]" : "]");
    }
}
