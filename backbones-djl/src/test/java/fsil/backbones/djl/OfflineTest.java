package fsil.backbones.djl;

import ai.djl.engine.Engine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DJL runs offline: the module sets ai.djl.offline before the engine starts, and the engine (libtorch 2.7.1 from the
 * pytorch-native-cpu jar) starts in a JVM whose network is unreachable (the pom routes HTTP(S) to a closed port).
 */
class OfflineTest {
    @TempDir
    Path cache;

    @Test
    void pytorchStartsOfflineWithoutTheNetwork() throws IOException {
        assertThrows(IOException.class, () -> {
            try (InputStream in = new URL("https://repo1.maven.org/maven2/").openStream()) {
                in.read();
            }
        }, "the premise: this JVM cannot reach the network");
        Engine e = DjlRuntime.engine(cache);
        assertEquals("true", System.getProperty("ai.djl.offline"));
        assertEquals("PyTorch", e.getEngineName());
        assertTrue(e.getVersion().startsWith("2.7.1"), e.getVersion());
        assertTrue(e.defaultDevice().getDeviceType().equals("cpu") || e.defaultDevice().isGpu(),
                e.defaultDevice().toString());
        Path engineCache = Path.of(System.getProperty("ENGINE_CACHE_DIR"));
        try (Stream<Path> s = Files.walk(engineCache)) {
            assertTrue(s.anyMatch(p -> p.getFileName().toString().startsWith("libtorch")),
                    "libtorch extracted into " + engineCache);
        }
    }
}
