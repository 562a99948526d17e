package fsil.data.io;

import fsil.api.FeatureMatrix;
import fsil.api.InvalidDataException;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
            int d = n == 0 ? 0 : size() / n;
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
        long fileLength;
        boolean gz;
        try (InputStream probe = Files.newInputStream(file)) {
            fileLength = Files.size(file);
            gz = probe.read() == 0x1f && probe.read() == 0x8b;
        } catch (NoSuchFileException e) {
            throw new InvalidDataException(source + ": file not found");
        } catch (IOException e) {
            throw new UncheckedIOException(source + ": cannot read: " + e.getMessage(), e);
        }
        try (InputStream in = InputFiles.maybeGunzip(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            return read(source, in, gz ? -1 : fileLength);
        } catch (java.util.zip.ZipException | java.io.EOFException e) {
            throw new InvalidDataException(source + ": corrupt or truncated gzip stream: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(source + ": cannot read: " + e.getMessage(), e);
        }
    }

    /**
     * Parses an IDX stream.
     *
     * @param totalLength exact byte count of the (uncompressed) stream if known, else -1
     */
    public static IdxArray read(String source, InputStream raw, long totalLength) throws IOException {
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
        long elements = 1;
        for (int k = 0; k < dims; k++) {
            shape[k] = db.getInt();
            if (shape[k] < 0) {
                throw new InvalidDataException(source + ": IDX dimension " + k + " is negative (" + shape[k] + ")");
            }
            elements = Math.multiplyExact(elements, (long) shape[k]);
        }
        long bytes = elements * sizeOf(type);
        if (bytes > MAX_DATA_BYTES) {
            throw new InvalidDataException(source + ": IDX shape " + Arrays.toString(shape) + " of "
                    + typeName(type) + " needs " + bytes + " bytes, more than the supported " + MAX_DATA_BYTES);
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

    /** Reads an image file and a label file and checks that they have the same number of samples. */
    public static LabeledTable readPair(Path images, Path labels, float scale) {
        FeatureMatrix x = read(images).toFeatures(scale);
        int[] y = read(labels).toLabels();
        if (x.rows() != y.length) {
            throw new InvalidDataException(labels + ": " + y.length + " labels but " + images.getFileName() + " has "
                    + x.rows() + " images");
        }
        return new LabeledTable(images.toString(), x, y, java.util.List.of());
    }
}
