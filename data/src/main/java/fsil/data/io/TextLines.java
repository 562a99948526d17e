package fsil.data.io;

import fsil.api.InvalidDataException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads strict UTF-8 text line by line. Invalid UTF-8 is an {@link InvalidDataException} naming the file, the line
 * and the column (1-based, in characters) of the first bad byte, instead of being replaced by U+FFFD (which would
 * silently merge different labels). Lines end at {@code \n}; a {@code \r} before it is dropped. A UTF-8 byte order
 * mark at the start of the file is skipped. I/O errors (including corrupt gzip data) are
 * {@link InvalidDataException}s naming the file.
 */
public final class TextLines implements AutoCloseable {
    /** Longest accepted line (a CSV row of a million features is about 10 MB). */
    public static final int MAX_LINE_BYTES = 1 << 28;
    private final String source;
    private final InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int end;
    private int lineNumber;
    private boolean first = true;

    /** Reads from {@code in}; {@code source} names it in error messages. */
    public TextLines(String source, InputStream in) {
        this.source = source;
        this.in = in;
    }

    /** Opens {@code file} (gunzipping it when it starts with the gzip magic). */
    public static TextLines open(Path file) {
        return new TextLines(file.toString(), InputFiles.open(file));
    }

    /** Every line of {@code file}. */
    public static List<String> readAll(Path file) {
        try (TextLines t = open(file)) {
            List<String> out = new ArrayList<>();
            String l;
            while ((l = t.next()) != null) {
                out.add(l);
            }
            return out;
        }
    }

    /** The 1-based number of the line last returned by {@link #next()}. */
    public int lineNumber() {
        return lineNumber;
    }

    /** The next line without its terminator, or null at the end of the input. */
    public String next() {
        line.reset();
        boolean any = false;
        try {
            while (true) {
                if (pos == end) {
                    end = in.read(buf, 0, buf.length);
                    pos = 0;
                    if (end <= 0) {
                        end = 0;
                        if (!any) {
                            return null;
                        }
                        break;
                    }
                }
                any = true;
                int start = pos;
                while (pos < end && buf[pos] != '\n') {
                    pos++;
                }
                line.write(buf, start, pos - start);
                if (line.size() > MAX_LINE_BYTES) {
                    throw new InvalidDataException(source + ": line " + (lineNumber + 1) + " is longer than "
                            + MAX_LINE_BYTES + " bytes; not a text file?");
                }
                if (pos < end) {
                    pos++; // the '\n'
                    break;
                }
            }
        } catch (IOException e) {
            throw InputFiles.unreadable(source, e);
        }
        lineNumber++;
        byte[] bytes = line.toByteArray();
        int n = bytes.length;
        if (n > 0 && bytes[n - 1] == '\r') {
            n--;
        }
        int off = 0;
        if (first) {
            first = false;
            if (n >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
                off = 3;
            }
        }
        return decode(bytes, off, n - off);
    }

    private String decode(byte[] bytes, int off, int len) {
        ByteBuffer inBuf = ByteBuffer.wrap(bytes, off, len);
        CharBuffer out = CharBuffer.allocate(len);
        decoder.reset();
        CoderResult r = decoder.decode(inBuf, out, true);
        if (!r.isError()) {
            r = decoder.flush(out);
        }
        if (r.isError()) {
            int bad = bytes[inBuf.position()] & 0xFF;
            throw new InvalidDataException(source + ": line " + lineNumber + ", column " + (out.position() + 1)
                    + ": invalid UTF-8 (byte 0x" + String.format("%02X", bad) + "); save the file as UTF-8");
        }
        out.flip();
        return out.toString();
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            throw InputFiles.unreadable(source, e);
        }
    }
}
