package fsil.data.io;

import fsil.api.InvalidDataException;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Opens input files, transparently decompressing gzip (detected by its magic bytes, not the file name). */
public final class InputFiles {

    private InputFiles() {
    }

    /** Opens {@code file}, gunzipping it if it starts with the gzip magic 1f 8b. */
    public static InputStream open(Path file) {
        try {
            return maybeGunzip(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
        } catch (NoSuchFileException e) {
            throw new InvalidDataException(file + ": file not found");
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Wraps a buffered stream in a gzip decoder if it starts with the gzip magic. */
    public static InputStream maybeGunzip(BufferedInputStream in) throws IOException {
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        if (b0 == 0x1f && b1 == 0x8b) {
            return new GZIPInputStream(in, 1 << 16);
        }
        return in;
    }
}
