package fsil.data.io;

import fsil.api.InvalidDataException;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Opens input files, transparently decompressing gzip (detected by its magic bytes, not the file name), and turns
 * every ordinary problem with a file (missing, a directory, unreadable, corrupt or truncated gzip data) into an
 * {@link InvalidDataException} whose one-line message names the file.
 */
public final class InputFiles {

    private InputFiles() {
    }

    /** Opens {@code file}, gunzipping it if it starts with the gzip magic 1f 8b. */
    public static InputStream open(Path file) {
        requireRegularFile(file);
        try {
            return maybeGunzip(new BufferedInputStream(Files.newInputStream(file), 1 << 16), file.toString());
        } catch (IOException e) {
            throw unreadable(file.toString(), e);
        }
    }

    /**
     * Checks that {@code file} exists and is a regular file (not a directory or a device).
     *
     * @throws InvalidDataException naming the file otherwise
     */
    public static void requireRegularFile(Path file) {
        if (Files.isDirectory(file)) {
            throw new InvalidDataException(file + ": is a directory, expected a file");
        }
        if (!Files.exists(file)) {
            throw new InvalidDataException(file + ": file not found");
        }
        if (!Files.isRegularFile(file)) {
            throw new InvalidDataException(file + ": not a regular file");
        }
    }

    /** Size of a regular file, with the same clear errors as {@link #requireRegularFile}. */
    public static long size(Path file) {
        requireRegularFile(file);
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw unreadable(file.toString(), e);
        }
    }

    /** The one-line error for an I/O failure while reading {@code source}. */
    public static InvalidDataException unreadable(String source, IOException e) {
        String why;
        if (e instanceof NoSuchFileException) {
            why = "file not found";
        } else if (e instanceof AccessDeniedException) {
            why = "cannot read (permission denied)";
        } else if (e instanceof ZipException || e instanceof EOFException) {
            why = "corrupt or truncated compressed data (" + oneLine(e.getMessage()) + ")";
        } else {
            why = "cannot read: " + oneLine(e.getMessage());
        }
        return new InvalidDataException(source + ": " + why, e);
    }

    /** Wraps a buffered stream in a gzip decoder if it starts with the gzip magic. */
    public static InputStream maybeGunzip(BufferedInputStream in) throws IOException {
        return maybeGunzip(in, "input");
    }

    /**
     * Wraps a buffered stream in a gzip decoder if it starts with the gzip magic; corrupt or truncated gzip data
     * then raises an {@link InvalidDataException} naming {@code source} instead of a bare {@link IOException}.
     */
    public static InputStream maybeGunzip(BufferedInputStream in, String source) throws IOException {
        if (!isGzip(in)) {
            return in;
        }
        try {
            return new GzipErrors(new GZIPInputStream(in, 1 << 16), source);
        } catch (ZipException | EOFException e) {
            throw unreadable(source, e);
        }
    }

    /** Whether the stream starts with the gzip magic 1f 8b (the stream is reset to where it was). */
    static boolean isGzip(BufferedInputStream in) throws IOException {
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b;
    }

    /** {@code s} without line breaks or other control characters, cut to {@code max} characters. */
    public static String oneLine(String s, int max) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(Math.min(s.length(), max) + 8);
        for (int i = 0; i < s.length() && sb.length() < max; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029' || c == 0x85) {
                sb.append(String.format("\\x%02x", (int) c & 0xff));
            } else {
                sb.append(c);
            }
        }
        if (sb.length() >= max && s.length() > max) {
            sb.append("...");
        }
        return sb.toString();
    }

    /** {@link #oneLine(String, int)} with a limit of 200 characters. */
    public static String oneLine(String s) {
        return oneLine(s, 200);
    }

    /** Reports corrupt or truncated gzip data as an {@link InvalidDataException} naming the file. */
    private static final class GzipErrors extends FilterInputStream {
        private final String source;

        GzipErrors(InputStream in, String source) {
            super(in);
            this.source = source;
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (ZipException | EOFException e) {
                throw unreadable(source, e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (ZipException | EOFException e) {
                throw unreadable(source, e);
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                return super.skip(n);
            } catch (ZipException | EOFException e) {
                throw unreadable(source, e);
            }
        }
    }
}
