package fsil.data.io;

import fsil.api.FsilException;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes files so that readers never see a partial file: the content goes to a temporary file in the same
 * directory, which is then moved over the target atomically. If writing fails, the temporary file is deleted and
 * the target is untouched. Failures are {@link FsilException}s naming the file.
 */
public final class AtomicFiles {

    /** Writes the content to the stream; may throw IOException. */
    @FunctionalInterface
    public interface Writer {
        void write(OutputStream out) throws IOException;
    }

    private AtomicFiles() {
    }

    /** Writes {@code target} atomically (creating parent directories). */
    public static void write(Path target, Writer writer) {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                writer.write(out);
            }
            try {
                // temp files are created owner-only; a cache file should be readable like any other file
                Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            // a user's problem (disk full, read-only directory, a directory in the way): one line, no temp file left
            throw new FsilException("cannot write " + target + ": " + (e.getMessage() == null
                    ? e.getClass().getSimpleName() : e.getMessage()), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the original failure is what matters
                }
            }
        }
    }

    /** Writes a UTF-8 string atomically. */
    public static void writeString(Path target, String content) {
        write(target, out -> out.write(content.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
