package fsil.eval;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** eval drives methods through the api only: no method module is on its class path, not even for its tests. */
class EvalClasspathTest {

    @Test
    void noMethodModuleOnTheClassPath() {
        List<String> methods = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.matches(".*[/\\\\]methods-[a-z]+([/\\\\].*|-[0-9].*)?")).toList();
        assertEquals(List.of(), methods);
        assertThrows(ClassNotFoundException.class, () -> Class.forName("fsil.methods.baselines.NcmMethod"));
    }
}
