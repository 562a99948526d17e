package fsil.data.io;

import fsil.api.InvalidDataException;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads NumPy {@code .npy} files (format versions 1.0, 2.0 and 3.0): float and integer dtypes, C and Fortran
 * order, little- and big-endian. Everything the header promises is validated <em>before</em> the data array is
 * allocated: the magic string, the header length (at most {@link #MAX_HEADER_BYTES}), the dtype, the shape and
 * that shape x element size equals the number of bytes that follow (so truncated files and files with trailing
 * garbage are both rejected).
 */
public final class NpyReader {
    /** The 6-byte magic string every .npy file starts with. */
    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    /** Upper bound on the header length. numpy itself refuses headers above 10,000 bytes by default. */
    public static final int MAX_HEADER_BYTES = 65_536;
    /** Upper bound on the data section: one Java array. */
    public static final long MAX_DATA_BYTES = Integer.MAX_VALUE - 64L;

    private static final Pattern DESCR = Pattern.compile("['\"]descr['\"]\\s*:\\s*(['\"])([^'\"]*)\\1");
    private static final Pattern STRUCTURED = Pattern.compile("['\"]descr['\"]\\s*:\\s*\\[");
    private static final Pattern FORTRAN = Pattern.compile("['\"]fortran_order['\"]\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("['\"]shape['\"]\\s*:\\s*\\(([^)]*)\\)");

    private NpyReader() {
    }

    /** Reads a whole .npy file. */
    public static NpyArray read(Path file) {
        String source = file.toString();
        long length = InputFiles.size(file);
        try (InputStream in = Files.newInputStream(file)) {
            return read(source, in, length);
        } catch (IOException e) {
            throw InputFiles.unreadable(source, e);
        }
    }

    /** Parses a .npy image held in memory. */
    public static NpyArray read(String source, byte[] bytes) {
        try {
            return read(source, new ByteArrayInputStream(bytes), bytes.length);
        } catch (IOException e) {
            throw InputFiles.unreadable(source, e);
        }
    }

    /**
     * Parses a .npy stream.
     *
     * @param source      name used in error messages
     * @param totalLength the exact number of bytes the stream holds, or -1 if unknown (then only truncation, not
     *                    trailing bytes, is detected before reading)
     */
    public static NpyArray read(String source, InputStream in, long totalLength) throws IOException {
        byte[] preamble = in.readNBytes(8);
        if (preamble.length < 8) {
            throw new InvalidDataException(source + ": truncated .npy file: " + preamble.length
                    + " bytes, shorter than the 8-byte preamble");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (preamble[i] != MAGIC[i]) {
                throw new InvalidDataException(source + ": not a NumPy .npy file (wrong magic string; it must"
                        + " start with \\x93NUMPY). Save arrays with np.save(path, array).");
            }
        }
        int major = preamble[6] & 0xFF;
        int lengthBytes;
        switch (major) {
            case 1 -> lengthBytes = 2;
            case 2, 3 -> lengthBytes = 4;
            default -> throw new InvalidDataException(source + ": unsupported .npy format version " + major + "."
                    + (preamble[7] & 0xFF) + " (supported: 1.0, 2.0, 3.0)");
        }
        byte[] lenBytes = in.readNBytes(lengthBytes);
        if (lenBytes.length < lengthBytes) {
            throw new InvalidDataException(source + ": truncated .npy file: the header length is cut off");
        }
        long headerLength = 0;
        for (int i = lengthBytes - 1; i >= 0; i--) {
            headerLength = (headerLength << 8) | (lenBytes[i] & 0xFF);
        }
        if (headerLength > MAX_HEADER_BYTES) {
            throw new InvalidDataException(source + ": .npy header of " + headerLength + " bytes exceeds the limit of "
                    + MAX_HEADER_BYTES + " bytes; the file is corrupt or not a plain array");
        }
        long prefix = 8 + lengthBytes + headerLength;
        if (totalLength >= 0 && prefix > totalLength) {
            throw new InvalidDataException(source + ": truncated .npy file: the header claims " + headerLength
                    + " bytes but the file has only " + totalLength + " bytes");
        }
        byte[] headerBytes = in.readNBytes((int) headerLength);
        if (headerBytes.length < headerLength) {
            throw new InvalidDataException(source + ": truncated .npy file: the header is cut off after "
                    + headerBytes.length + " of " + headerLength + " bytes");
        }
        String header = new String(headerBytes, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        if (STRUCTURED.matcher(header).find()) {
            throw new InvalidDataException(source + ": structured (record) dtypes are not supported; save a plain"
                    + " numeric array");
        }
        Matcher descr = DESCR.matcher(header);
        Matcher fortran = FORTRAN.matcher(header);
        Matcher shapeM = SHAPE.matcher(header);
        if (!descr.find() || !fortran.find() || !shapeM.find()) {
            throw new InvalidDataException(source + ": malformed .npy header (needs 'descr', 'fortran_order' and"
                    + " 'shape'): " + InputFiles.oneLine(header.strip()));
        }
        NpyDType.Parsed dtype = NpyDType.parse(descr.group(2), source);
        int[] shape = parseShape(shapeM.group(1), source);
        String descrText = InputFiles.oneLine(descr.group(2), 40);
        long dataBytes;
        try {
            long elements = 1;
            for (int s : shape) {
                elements = Math.multiplyExact(elements, (long) s);
            }
            dataBytes = Math.multiplyExact(elements, (long) dtype.itemSize());
        } catch (ArithmeticException e) {
            dataBytes = Long.MAX_VALUE;
        }
        if (dataBytes > MAX_DATA_BYTES) {
            throw new InvalidDataException(source + ": array of shape " + shapeString(shape) + " needs " + dataBytes
                    + " bytes, more than the supported " + MAX_DATA_BYTES + " bytes per array");
        }
        if (totalLength >= 0) {
            long available = totalLength - prefix;
            if (available < dataBytes) {
                throw new InvalidDataException(source + ": truncated .npy file: shape " + shapeString(shape) + " of "
                        + descrText + " needs " + dataBytes + " data bytes but only " + available
                        + " follow the header");
            }
            if (available > dataBytes) {
                throw new InvalidDataException(source + ": .npy file has " + (available - dataBytes)
                        + " unexpected bytes after the data of shape " + shapeString(shape) + " (" + descrText
                        + "): the header does not match the data");
            }
        }
        byte[] data = in.readNBytes((int) dataBytes);
        if (data.length < dataBytes) {
            throw new InvalidDataException(source + ": truncated .npy file: shape " + shapeString(shape) + " of "
                    + descrText + " needs " + dataBytes + " data bytes but only " + data.length + " follow");
        }
        boolean isFortran = fortran.group(1).equals("True");
        return new NpyArray(source, shape, dtype.type(), dtype.itemSize(), dtype.order(), isFortran, data);
    }

    private static int[] parseShape(String inner, String source) {
        List<Integer> dims = new ArrayList<>();
        for (String part : inner.split(",")) {
            String p = part.strip();
            if (p.endsWith("L")) {
                p = p.substring(0, p.length() - 1); // Python 2 longs
            }
            if (p.isEmpty()) {
                continue;
            }
            long v;
            try {
                v = Long.parseLong(p);
            } catch (NumberFormatException e) {
                throw new InvalidDataException(source + ": malformed shape (" + InputFiles.oneLine(inner, 60)
                        + ") in the .npy header");
            }
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw new InvalidDataException(source + ": dimension " + v + " in shape ("
                        + InputFiles.oneLine(inner, 60) + ") is out of range");
            }
            dims.add((int) v);
        }
        if (dims.size() > 32) {
            throw new InvalidDataException(source + ": shape (" + InputFiles.oneLine(inner, 60)
                    + ") has more than 32 dimensions");
        }
        return dims.stream().mapToInt(Integer::intValue).toArray();
    }

    public static String shapeString(int[] shape) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            sb.append(shape[i]).append(i == 0 && shape.length == 1 ? "," : (i < shape.length - 1 ? ", " : ""));
        }
        return sb.append(')').toString();
    }
}
