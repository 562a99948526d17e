package fsil.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegistryTest {

    /** A plugin kind for these tests. */
    public interface Greeter {
        String id();
    }

    /** A provider ServiceLoader can make (public, no-argument constructor). */
    public static final class Hello implements Greeter {
        @Override
        public String id() {
            return "hello";
        }
    }

    record Named(String id) implements Greeter {
    }

    static final class Other implements Greeter {
        @Override
        public String id() {
            return "hello";
        }
    }

    static Registry<Greeter> registry() {
        return new Registry<>("greeter", Greeter::id);
    }

    @Test
    void idsAreLowerCaseLettersDigitsDashAndUnderscoreStartingWithALetter() {
        for (String ok : List.of("a", "ppca", "soft-kmeans", "episode_acc", "m2", "a-1_b")) {
            assertTrue(registry().register(new Named(ok)).contains(ok), ok);
        }
        for (String bad : new String[]{null, "", "Ppca", "1abc", "-a", "_a", "a b", "a.b", "a,b", "a[x]", "é"}) {
            FsilException e = assertThrows(FsilException.class, () -> registry().register(new Named(bad)), bad);
            assertTrue(e.getMessage().contains("greeter id '" + bad + "'"), e.getMessage());
            assertTrue(e.getMessage().contains(Named.class.getName()), "names the class: " + e.getMessage());
            assertTrue(e.getMessage().contains("lower-case letters, digits, '-' and '_', starting with a letter"),
                    e.getMessage());
        }
    }

    @Test
    void randomIdsAreAcceptedExactlyWhenTheyMatchTheDocumentedRule() {
        Random rnd = new Random(20240607);
        String alphabet = "abcxyzAZ0189-_. é";
        for (int i = 0; i < 2000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = rnd.nextInt(6); n >= 0; n--) {
                sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            String id = sb.toString();
            boolean documented = !id.isEmpty() && id.charAt(0) >= 'a' && id.charAt(0) <= 'z'
                    && id.chars().allMatch(c -> c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_');
            boolean accepted;
            try {
                registry().register(new Named(id));
                accepted = true;
            } catch (FsilException e) {
                accepted = false;
            }
            assertEquals(documented, accepted, "'" + id + "'");
        }
    }

    @Test
    void anIdBelongsToOnePlugin() {
        Hello hello = new Hello();
        Registry<Greeter> r = registry().register(hello).register(hello);
        assertEquals(List.of("hello"), r.ids(), "the same instance twice is one registration");
        FsilException other = assertThrows(FsilException.class, () -> r.register(new Other()));
        assertTrue(other.getMessage().contains("greeter id 'hello' is already registered by " + Hello.class.getName()),
                other.getMessage());
        assertTrue(other.getMessage().contains(Other.class.getName() + " cannot use it too"), other.getMessage());
        FsilException same = assertThrows(FsilException.class, () -> r.register(new Hello()));
        assertTrue(same.getMessage().contains("already registered by " + Hello.class.getName() + ". Ids must be unique"),
                same.getMessage());
        assertSame(hello, r.get("hello"), "the first registration stays");
        assertThrows(FsilException.class, () -> registry().registerAll(List.of(new Named("x"), new Named("x"))));
    }

    @Test
    void unknownIdsListTheKnownOnesAndSuggestTheClosest() {
        Registry<Greeter> r = registry().registerAll(List.of(new Named("soft-kmeans"), new Named("ncm"),
                new Named("knn"), new Named("ppca")));
        assertEquals(List.of("knn", "ncm", "ppca", "soft-kmeans"), r.ids(), "sorted by id");
        assertEquals(List.of("knn", "ncm", "ppca", "soft-kmeans"), r.all().stream().map(Greeter::id).toList());
        FsilException e = assertThrows(FsilException.class, () -> r.get("softkmeans"));
        assertEquals("unknown greeter 'softkmeans' (did you mean 'soft-kmeans'?). Known greeters: knn, ncm, ppca, "
                + "soft-kmeans", e.getMessage());
        FsilException far = assertThrows(FsilException.class, () -> r.get("bavardage"));
        assertFalse(far.getMessage().contains("did you mean"), far.getMessage());
        assertTrue(far.getMessage().contains("Known greeters: knn, ncm, ppca, soft-kmeans"), far.getMessage());
        assertFalse(r.contains("bavardage"));
    }

    @Test
    void closestIsWithinTwoEditsOrAThirdOfTheWordAndPrefersTheNearestThenTheFirstInOrder() {
        assertEquals("ncm", Registry.closest("nmc", List.of("ncm", "knn")));
        assertEquals("abc", Registry.closest("abd", List.of("abe", "abc")), "ties go to the first in order");
        assertNull(Registry.closest("abcdef", List.of("uvwxyz")));
        assertEquals("abcdefghi", Registry.closest("abcdefxyz", List.of("abcdefghi")), "3 edits in 9 letters");
        assertNull(Registry.closest("abcdefwxyz", List.of("abcdefghij")), "4 edits in 10 letters");
        assertNull(Registry.closest(null, List.of("a")));
        Random rnd = new Random(7);
        for (int i = 0; i < 500; i++) {
            List<String> candidates = new ArrayList<>();
            for (int k = 0; k < 5; k++) {
                candidates.add(randomWord(rnd, 3 + rnd.nextInt(8)));
            }
            String target = candidates.get(rnd.nextInt(candidates.size()));
            String typo = edit(rnd, target);
            String c = Registry.closest(typo, candidates);
            assertTrue(c != null && Registry.editDistance(typo, c) <= 1, typo + " -> " + c + " in " + candidates);
            for (String other : candidates) {
                assertTrue(Registry.editDistance(typo, c) <= Registry.editDistance(typo, other));
            }
        }
    }

    @Test
    void editDistanceIsAMetric() {
        assertEquals(3, Registry.editDistance("kitten", "sitting"));
        assertEquals(0, Registry.editDistance("", ""));
        assertEquals(4, Registry.editDistance("", "abcd"));
        Random rnd = new Random(11);
        for (int i = 0; i < 500; i++) {
            String a = randomWord(rnd, rnd.nextInt(7));
            String b = randomWord(rnd, rnd.nextInt(7));
            String c = randomWord(rnd, rnd.nextInt(7));
            int ab = Registry.editDistance(a, b);
            assertEquals(0, Registry.editDistance(a, a));
            assertEquals(ab, Registry.editDistance(b, a));
            assertTrue(ab <= Registry.editDistance(a, c) + Registry.editDistance(c, b));
            assertTrue(ab >= Math.abs(a.length() - b.length()) && ab <= Math.max(a.length(), b.length()));
            assertTrue(Registry.editDistance(a, edit(rnd, a)) <= 1);
        }
    }

    @Test
    void discoveryCountsAProviderListedTwiceOnce(@TempDir Path dir) throws IOException {
        Path first = services(dir.resolve("first"), Hello.class.getName());
        Path second = services(dir.resolve("second"), "# a comment\n" + Hello.class.getName());
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader twice = new URLClassLoader(new URL[]{first.toUri().toURL(), second.toUri().toURL()},
                RegistryTest.class.getClassLoader())) {
            Thread.currentThread().setContextClassLoader(twice);
            List<Greeter> found = Registry.load(Greeter.class);
            assertEquals(1, found.size(), "found " + found);
            assertTrue(found.get(0) instanceof Hello);
            Registry<Greeter> r = Registry.discover("greeter", Greeter.class, Greeter::id);
            assertEquals(List.of("hello"), r.ids());
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
        assertEquals(List.of(), Registry.load(Greeter.class), "nothing listed on the test class path");
    }

    static Path services(Path dir, String lines) throws IOException {
        Path file = dir.resolve("META-INF/services/" + Greeter.class.getName());
        Files.createDirectories(file.getParent());
        Files.writeString(file, lines + "\n");
        return dir;
    }

    static String randomWord(Random rnd, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < length; i++) {
            sb.append((char) ('a' + rnd.nextInt(6)));
        }
        return sb.toString();
    }

    /** One random insertion, deletion or substitution (or none). */
    static String edit(Random rnd, String w) {
        int at = rnd.nextInt(w.length() + 1);
        char c = (char) ('a' + rnd.nextInt(6));
        return switch (rnd.nextInt(3)) {
            case 0 -> w.substring(0, at) + c + w.substring(at);
            case 1 -> at < w.length() ? w.substring(0, at) + w.substring(at + 1) : w;
            default -> at < w.length() ? w.substring(0, at) + c + w.substring(at + 1) : w;
        };
    }
}
