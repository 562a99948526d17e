package fsil.data.fuzz;

import fsil.api.FsilException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What every reader fuzz test checks: reading arbitrary bytes either succeeds or throws the documented clear-error
 * type, {@link FsilException} (or a subclass), whose message is one line and names the file. Any other exception
 * or error (including OutOfMemoryError) escapes and is a finding.
 */
final class ReaderOracle {

    private ReaderOracle() {
    }

    /** A read that may fail only with a clear error. */
    interface Read {
        void run();
    }

    /** Runs {@code read}; a clear error is fine when its message is one line naming {@code named}. */
    static void check(Path named, Read read) {
        try {
            read.run();
        } catch (FsilException e) {
            String m = e.getMessage();
            if (m == null || m.contains("\n") || m.contains("\r")) {
                throw new AssertionError("the message must be one line: " + m, e);
            }
            if (!m.contains(named.toString())) {
                throw new AssertionError("the message must name " + named + ": " + m, e);
            }
        }
    }

    /** A fresh, empty working directory for one fuzz test class. */
    static Path workDir(String name) {
        try {
            Path dir = Files.createTempDirectory("fsil-fuzz-" + name);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                clear(dir);
                dir.toFile().delete();
            }));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code bytes} to {@code file}, replacing it. */
    static Path write(Path file, byte[] bytes) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, bytes);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes everything inside {@code dir} (not {@code dir} itself). */
    static void clear(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
