package fsil.data.io;

import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads IDX files (the MNIST / Fashion-MNIST format), raw or gzipped: a magic of two zero bytes, a type code
 * (0x08 unsigned byte, 0x09 signed byte, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64) and the number of
 * dimensions, then each dimension as a big-endian int32, then the big-endian data. The header is validated and
 * the data size bounded before anything is allocated; truncated files and trailing bytes are errors.
 */
public final class IdxReader {
    /** Largest data section accepted (one Java array). */
    public static final long MAX_DATA_BYTES = Integer.MAX_VALUE - 64L;

    private IdxReader() {
    }

    /** A parsed IDX array: shape, element type code and big-endian data. */
    public record IdxArray(String source, int[] shape, int typeCode, byte[] data) {

        public int elementSize() {
            return sizeOf(typeCode);
        }

        /** Number of elements. */
        public int size() {
            return data.length / elementSize();
        }

        double element(ByteBuffer b, int i) {
            return switch (typeCode) {
                case 0x08 -> data[i] & 0xFF;
                case 0x09 -> data[i];
                case 0x0B -> b.getShort(2 * i);
                case 0x0C -> b.getInt(4 * i);
                case 0x0D -> b.getFloat(4 * i);
                default -> b.getDouble(8 * i);
            };
        }

        /**
         * The array as features: the first dimension indexes samples, the rest is flattened; values are multiplied
         * by {@code scale} (e.g. 1/255 for images).
         */
        public FeatureMatrix toFeatures(float scale) {
            if (shape.length < 1) {
                throw new InvalidDataException(source + ": IDX array has no dimensions");
            }
            int n = shape[0];
            if (n == 0) {
                throw new InvalidDataException(source + ": IDX array of shape " + Arrays.toString(shape)
                        + " has no samples");
            }
            int d = size() / n;
            if (d == 0) {
                throw new InvalidDataException(source + ": IDX array of shape " + Arrays.toString(shape)
                        + " has no feature values per sample");
            }
            float[] out = new float[n * d];
            ByteBuffer b = ByteBuffer.wrap(data);
            for (int i = 0; i < out.length; i++) {
                double v = element(b, i);
                if (!Double.isFinite(v)) {
                    throw new InvalidDataException(source + ": value " + v + " at sample " + (i / d) + ", position "
                            + (i % d) + " is not finite");
                }
                out[i] = (float) (v * scale);
            }
            return FeatureMatrix.wrap(n, d, out);
        }

        /** The array as labels: 1-d, non-negative integers. */
        public int[] toLabels() {
            if (shape.length != 1) {
                throw new InvalidDataException(source + ": labels must be a 1-d IDX array, got shape "
                        + Arrays.toString(shape));
            }
            if (typeCode == 0x0D || typeCode == 0x0E) {
                throw new InvalidDataException(source + ": labels must have an integer IDX type, got "
                        + typeName(typeCode));
            }
            int[] out = new int[shape[0]];
            ByteBuffer b = ByteBuffer.wrap(data);
            for (int i = 0; i < out.length; i++) {
                double v = element(b, i);
                if (v < 0) {
                    throw new InvalidDataException(source + ": label " + (long) v + " at index " + i + " is negative");
                }
                out[i] = (int) v;
            }
            return out;
        }
    }

    static int sizeOf(int type) {
        return switch (type) {
            case 0x08, 0x09 -> 1;
            case 0x0B -> 2;
            case 0x0C, 0x0D -> 4;
            case 0x0E -> 8;
            default -> -1;
        };
    }

    static String typeName(int type) {
        return switch (type) {
            case 0x08 -> "ubyte";
            case 0x09 -> "byte";
            case 0x0B -> "int16";
            case 0x0C -> "int32";
            case 0x0D -> "float32";
            case 0x0E -> "float64";
            default -> String.format("0x%02X", type);
        };
    }

    /** Reads an IDX file, gunzipping it when it starts with the gzip magic. */
    public static IdxArray read(Path file) {
        String source = file.toString();
        long fileLength = InputFiles.size(file);
        try (BufferedInputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            boolean gz = InputFiles.isGzip(raw);
            InputStream in = InputFiles.maybeGunzip(raw, source);
            return read(source, in, gz ? -1 : fileLength, gz ? fileLength : -1);
        } catch (IOException e) {
            throw InputFiles.unreadable(source, e);
        }
    }

    /**
     * Parses an IDX stream.
     *
     * @param totalLength exact byte count of the (uncompressed) stream if known, else -1
     */
    public static IdxArray read(String source, InputStream raw, long totalLength) throws IOException {
        return read(source, raw, totalLength, -1);
    }

    /**
     * Parses an IDX stream.
     *
     * @param totalLength      exact byte count of the (uncompressed) stream if known, else -1
     * @param compressedLength size of the gzip file the stream is decompressed from, else -1; a header that
     *                         promises more than {@link NpzReader#MAX_RATIO} times as many bytes is refused before
     *                         any data is read (a gzip bomb, or a corrupt header)
     */
    static IdxArray read(String source, InputStream raw, long totalLength, long compressedLength)
            throws IOException {
        DataInputStream in = new DataInputStream(raw);
        byte[] magic = in.readNBytes(4);
        if (magic.length < 4) {
            throw new InvalidDataException(source + ": truncated IDX file (" + magic.length + " bytes)");
        }
        int type = magic[2] & 0xFF;
        int dims = magic[3] & 0xFF;
        if (magic[0] != 0 || magic[1] != 0 || sizeOf(type) < 0) {
            throw new InvalidDataException(source + ": not an IDX file (wrong magic "
                    + String.format("%02X %02X %02X %02X", magic[0], magic[1], magic[2], magic[3])
                    + "; expected 00 00 <type 08/09/0B/0C/0D/0E> <dims>)");
        }
        if (dims == 0 || dims > 16) {
            throw new InvalidDataException(source + ": IDX header declares " + dims + " dimensions (expected 1..16)");
        }
        byte[] dimBytes = in.readNBytes(4 * dims);
        if (dimBytes.length < 4 * dims) {
            throw new InvalidDataException(source + ": truncated IDX file: the " + dims + " dimension sizes are"
                    + " cut off");
        }
        ByteBuffer db = ByteBuffer.wrap(dimBytes);
        int[] shape = new int[dims];
        for (int k = 0; k < dims; k++) {
            shape[k] = db.getInt();
            if (shape[k] < 0) {
                throw new InvalidDataException(source + ": IDX dimension " + k + " is negative (" + shape[k] + ")");
            }
        }
        long bytes;
        try {
            long elements = 1;
            for (int s : shape) {
                elements = Math.multiplyExact(elements, (long) s);
            }
            bytes = Math.multiplyExact(elements, (long) sizeOf(type));
        } catch (ArithmeticException e) {
            bytes = Long.MAX_VALUE;
        }
        if (bytes > MAX_DATA_BYTES) {
            throw new InvalidDataException(source + ": IDX shape " + Arrays.toString(shape) + " of "
                    + typeName(type) + " needs " + bytes + " bytes, more than the supported " + MAX_DATA_BYTES);
        }
        if (compressedLength > 0 && bytes > 1 << 20 && bytes / compressedLength > NpzReader.MAX_RATIO) {
            throw new InvalidDataException(source + ": IDX header promises " + bytes + " bytes from a " + compressedLength
                    + "-byte gzip file (" + bytes / compressedLength + "-fold); refusing a corrupt header or gzip bomb");
        }
        long prefix = 4 + 4L * dims;
        if (totalLength >= 0 && totalLength - prefix != bytes) {
            throw new InvalidDataException(source + ": " + (totalLength - prefix < bytes ? "truncated IDX file" :
                    "IDX file has trailing bytes") + ": shape " + Arrays.toString(shape) + " of " + typeName(type)
                    + " needs " + bytes + " data bytes but the file has " + (totalLength - prefix));
        }
        byte[] data = in.readNBytes((int) bytes);
        if (data.length < bytes) {
            throw new InvalidDataException(source + ": truncated IDX file: shape " + Arrays.toString(shape)
                    + " needs " + bytes + " data bytes but only " + data.length + " follow");
        }
        if (totalLength < 0 && in.read() >= 0) {
            throw new InvalidDataException(source + ": IDX file has trailing bytes after the " + bytes
                    + " data bytes of shape " + Arrays.toString(shape));
        }
        return new IdxArray(source, shape, type, data);
    }

    /** Largest class id an IDX label file may hold. */
    public static final int MAX_CLASS_ID = 65_535;

    /** Reads an image file and a label file and checks that they have the same number of samples. */
    public static LabeledTable readPair(Path images, Path labels, float scale) {
        FeatureMatrix x = read(images).toFeatures(scale);
        int[] y = read(labels).toLabels();
        if (x.rows() != y.length) {
            throw new InvalidDataException(labels + ": " + y.length + " labels but " + images.getFileName() + " has "
                    + x.rows() + " images");
        }
        // IDX labels are class ids (MNIST-style datasets number their classes 0..K-1); bound them before the
        // class table is sized by the largest one
        int max = 0;
        for (int i = 0; i < y.length; i++) {
            if (y[i] > MAX_CLASS_ID) {
                throw new InvalidDataException(labels + ": label " + y[i] + " at index " + i + " exceeds "
                        + MAX_CLASS_ID + "; IDX labels must be class ids");
            }
            max = Math.max(max, y[i]);
        }
        return new LabeledTable(images.toString(), x, y, fsil.api.ClassTable.numbered(max + 1).names());
    }
}
