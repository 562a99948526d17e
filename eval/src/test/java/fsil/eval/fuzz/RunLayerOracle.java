package fsil.eval.fuzz;

import fsil.api.FsilException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the run layer's fuzz tests check: reading arbitrary bytes either succeeds or throws an
 * {@link FsilException} whose message is one line; any other exception or error is a finding. The tests replay their
 * committed corpus in {@code mvn verify} and fuzz with {@code JAZZER_FUZZ=1} (data/fuzz/run-fuzzers.sh).
 */
final class RunLayerOracle {
    private RunLayerOracle() {
    }

    static void oneLine(Runnable read) {
        try {
            read.run();
        } catch (FsilException e) {
            String m = e.getMessage();
            if (m == null || m.contains("\n") || m.contains("\r")) {
                throw new AssertionError("the message must be one line: " + m, e);
            }
        }
    }

    static Path write(Path dir, String name, byte[] bytes) {
        try {
            Path f = dir.resolve(name);
            Files.write(f, bytes);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path workDir(String name) {
        try {
            Path d = Files.createTempDirectory("fsil-fuzz-" + name);
            d.toFile().deleteOnExit();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
