package fsil.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Temporary directories a check works in (caches, features), deleted with their contents when the check ends. */
final class Scratch implements AutoCloseable {
    private final List<Path> dirs = new ArrayList<>();

    /** A new empty directory. */
    Path dir() throws IOException {
        Path d = Files.createTempDirectory("fsil-conformance");
        dirs.add(d);
        return d;
    }

    @Override
    public void close() throws IOException {
        for (Path d : dirs) {
            try (Stream<Path> all = Files.walk(d)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
