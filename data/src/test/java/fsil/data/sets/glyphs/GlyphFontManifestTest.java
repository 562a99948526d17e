package fsil.data.sets.glyphs;

import fsil.api.FsilException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** glyphs renders from the committed font manifest only, and says exactly what differs when fonts do not match. */
class GlyphFontManifestTest {
    @TempDir
    Path fonts;

    @Test
    void manifestPinsTheFilesOfTheDebianPackages() {
        List<GlyphsDataset.PinnedFont> m = GlyphsDataset.manifest();
        Set<String> paths = new HashSet<>();
        for (GlyphsDataset.PinnedFont f : m) {
            assertTrue(f.sha256().matches("[0-9a-f]{64}"), f.toString());
            assertTrue(Set.of("fonts-noto-core", "fonts-dejavu-core", "fonts-dejavu-extra").contains(f.debianPackage()),
                    f.toString());
            assertTrue(paths.add(f.path()), "listed twice: " + f.path());
        }
        assertEquals(6, m.stream().filter(f -> f.debianPackage().equals("fonts-dejavu-core")).count());
        assertEquals(16, m.stream().filter(f -> f.debianPackage().equals("fonts-dejavu-extra")).count());
        assertEquals(268, m.stream().filter(f -> f.debianPackage().equals("fonts-noto-core")).count());
    }

    @Test
    void missingFilesAreListedWithThePackagesToInstall() {
        FsilException e = assertThrows(FsilException.class, () -> GlyphsDataset.pinnedFonts(List.of(fonts)));
        String m = e.getMessage();
        assertTrue(m.contains("6 files of fonts-dejavu-core missing (truetype/dejavu/DejaVuSans-Bold.ttf"), m);
        assertTrue(m.contains("268 files of fonts-noto-core missing"), m);
        assertTrue(m.contains("16 files of fonts-dejavu-extra missing"), m);
        assertTrue(m.contains("apt-get install fonts-dejavu-core fonts-dejavu-extra fonts-noto-core"), m);
        assertFalse(m.contains("\n"), m);
    }

    @Test
    void aFileWithAnotherChecksumIsNamed() throws IOException {
        Path fake = fonts.resolve("truetype/dejavu/DejaVuSans.ttf");
        Files.createDirectories(fake.getParent());
        Files.write(fake, new byte[]{1, 2, 3});
        String m = assertThrows(FsilException.class, () -> GlyphsDataset.pinnedFonts(List.of(fonts))).getMessage();
        assertTrue(m.contains("1 file with a different SHA-256 (" + fake + " (expected abdc775b21b1..., found"), m);
        assertTrue(m.contains("5 files of fonts-dejavu-core missing"), m);
    }

    @Test
    void otherInstalledFontsDoNotChangeTheFontList() throws IOException {
        assumeTrue(GlyphsDataset.missing() == null, "needs the pinned fonts: " + GlyphsDataset.missing());
        GlyphsDataset.PinnedFonts pinned = GlyphsDataset.pinnedFonts();
        assertEquals(GlyphsDataset.manifest().size(), pinned.files().size());
        // an extra directory with more fonts (one shadowing nothing, one beside DejaVu) changes nothing
        Path extra = fonts.resolve("truetype/dejavu/DejaVuSans-Oblique.ttf");
        Files.createDirectories(extra.getParent());
        Files.copy(pinned.files().get(0), extra);
        Files.copy(pinned.files().get(1), fonts.resolve("Another.ttf"));
        List<Path> dirs = Stream.concat(GlyphsDataset.fontDirs().stream(), Stream.of(fonts)).toList();
        assertEquals(pinned, GlyphsDataset.pinnedFonts(dirs));
    }
}
