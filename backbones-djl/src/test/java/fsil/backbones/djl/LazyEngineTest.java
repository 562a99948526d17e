package fsil.backbones.djl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Listing and resolving backbones (what fsil backbones, fsil methods and fsil demo do) never starts DJL's engine: in
 * a fresh JVM with an empty DJL cache directory, no class of DJL's engine or native layer is loaded and the cache
 * directory stays empty.
 */
class LazyEngineTest {
    @Test
    void listingBackbonesDoesNotTouchDjl(@TempDir Path djl) throws IOException, InterruptedException {
        Path out = djl.resolveSibling(djl.getFileName() + "-out.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-verbose:class", "-DDJL_CACHE_DIR=" + djl, "-DENGINE_CACHE_DIR=" + djl,
                "-cp", System.getProperty("java.class.path"), ListBackbones.class.getName())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the listing finishes");
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        Files.delete(out);
        assertEquals(0, p.exitValue(), String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("conv4 ")), "conv4 listed");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("resnet18 ")), "resnet18 listed");
        assertTrue(lines.contains("conv4[epochs=2,batch=64,optimizer=adam,lr=0.001,wd=5.0E-4,momentum=0.9,augment=true,"
                + "threads=1,val_episodes=200,val_shots=1]"), String.join("\n", lines));
        List<String> djlClasses = lines.stream().filter(l -> l.contains(" ai.djl.")).toList();
        assertTrue(djlClasses.isEmpty(), "no DJL class is loaded: " + djlClasses);
        try (Stream<Path> s = Files.list(djl)) {
            assertFalse(s.findAny().isPresent(), "the DJL cache stays empty");
        }
    }
}
