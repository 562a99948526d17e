package fsil.eval.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import fsil.api.FsilException;
import fsil.eval.report.Report;
import fsil.eval.report.SettingOptions;
import fsil.eval.store.RunDirectory;
import fsil.eval.store.UnitRecord;
import fsil.eval.store.UnitStore;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The stored units of one or more run directories, read for a comparison. A run is read, not locked: a finished run
 * can be compared while another process works elsewhere. Refused, each with one line: a directory that is no run
 * (one that holds runs is named with them), a run named twice (also through a link: real paths are compared), a
 * run still in use (its lock is held), an unfinished run, invalid rows (a paired test needs every task), and runs
 * whose config.json records other data (fingerprints) for the same dataset. When the same method label appears in
 * several runs on the same dataset and setting (say ppca with q=0 in one run and q=10 in another), each is named
 * {@code <run directory>/<label>} so the two stay apart.
 */
public final class RunSet {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunSet() {
    }

    public static List<UnitRecord> load(List<Path> dirs) {
        return load(dirs, false);
    }

    /**
     * With {@code pool}, the runs are parts of one experiment (e.g. the same spec with different order seeds): a
     * label is the same method in every run, and its units of all runs are paired together (a unit held twice, with
     * the same seeds, is refused).
     */
    public static List<UnitRecord> load(List<Path> dirs, boolean pool) {
        if (dirs.isEmpty()) {
            throw new FsilException("name at least one run directory to compare");
        }
        List<List<UnitRecord>> perRun = new ArrayList<>();
        List<JsonNode> configs = new ArrayList<>();
        Map<Path, Path> named = new HashMap<>(); // real path -> the run as named
        for (Path dir : dirs) {
            requireRun(dir);
            Path real = realPath(dir);
            Path before = named.putIfAbsent(real, dir);
            if (before != null) {
                throw new FsilException(before.equals(dir) ? "run directory " + dir + " is named twice"
                        : "runs " + before + " and " + dir + " are the same run (" + real + "): a run compared with "
                        + "itself pairs every unit with itself; name each run once");
            }
            String holder = lockHolder(dir);
            if (holder != null) {
                throw new FsilException(dir + " is still running: " + holder + " holds it (" + RunDirectory.LOCK
                        + "); compare it when the run has finished");
            }
            Path file = dir.resolve(UnitStore.FILE);
            if (!Files.isRegularFile(file)) {
                throw unfinished(dir, "it stored no unit yet (no " + UnitStore.FILE + ")");
            }
            UnitStore.Contents c = UnitStore.read(file);
            if (!c.invalid().isEmpty()) {
                throw new FsilException(dir + " holds " + c.invalid().size() + " invalid row(s) ("
                        + c.describeInvalid(3) + "); 'fsil run --resume " + dir + "' recomputes them");
            }
            if (!Files.isRegularFile(dir.resolve(Report.SUMMARY))) {
                throw unfinished(dir, "it stopped before its end (" + c.rows().size() + " unit(s) stored, no "
                        + Report.SUMMARY + ")");
            }
            JsonNode config = config(dir);
            String gap = gap(config, c.rows());
            if (gap != null) {
                throw unfinished(dir, gap);
            }
            perRun.add(c.rows());
            configs.add(config);
        }
        sameData(dirs, configs);
        if (pool) {
            Map<List<Object>, Integer> seen2 = new HashMap<>();
            List<UnitRecord> all = new ArrayList<>();
            for (int i = 0; i < perRun.size(); i++) {
                for (UnitRecord r : perRun.get(i)) {
                    Integer other = seen2.put(List.of(r.method(), r.dataset(), r.setting(), r.unit(), r.orderSeed(),
                            r.trainSeed()), i);
                    if (other != null) {
                        throw new FsilException(dirs.get(other) + " and " + dirs.get(i) + " both hold " + r.key()
                                + " with the same seeds: pooled runs must be different parts of one experiment "
                                + "(e.g. other order seeds)");
                    }
                    all.add(r);
                }
            }
            return all;
        }
        // (label, dataset, setting) -> the runs that hold it
        Map<List<String>, Set<Integer>> holders = new HashMap<>();
        for (int i = 0; i < perRun.size(); i++) {
            for (UnitRecord r : perRun.get(i)) {
                holders.computeIfAbsent(List.of(r.method(), r.dataset(), r.setting()), k -> new HashSet<>()).add(i);
            }
        }
        Set<String> clashing = new HashSet<>();
        holders.forEach((k, runs) -> {
            if (runs.size() > 1) {
                clashing.add(k.get(0));
            }
        });
        Set<String> names = new HashSet<>();
        boolean uniqueNames = dirs.stream().allMatch(d -> names.add(name(d)));
        List<UnitRecord> all = new ArrayList<>();
        for (int i = 0; i < perRun.size(); i++) {
            String prefix = (uniqueNames ? name(dirs.get(i)) : dirs.get(i).toString()) + "/";
            for (UnitRecord r : perRun.get(i)) {
                all.add(clashing.contains(r.method()) ? relabel(r, prefix + r.method()) : r);
            }
        }
        return all;
    }

    /**
     * Refuses, with one line, a path that is not a run directory; one that holds runs (as the demo's directory, with
     * its fewshot/ and cil/ runs) is named with them.
     */
    static void requireRun(Path dir) {
        requireRun(dir, "compare");
    }

    /**
     * {@link RunDirectory#requireRun}, except that a directory holding runs instead of being one (as the demo's
     * {@code runs/demo-<time>/}, with its {@code fewshot/} and {@code cil/} runs) is refused naming them, in the
     * order they were made: "DIR is not a run; it holds the runs fewshot/, cil/: VERB one of them". {@code verb} is
     * the command's ("compare", "report").
     */
    public static void requireRun(Path dir, String verb) {
        if (Files.isDirectory(dir) && !Files.isRegularFile(dir.resolve(RunDirectory.SPEC))) {
            List<String> inside = runsIn(dir);
            if (!inside.isEmpty()) {
                throw new FsilException(dir + " is not a run; it holds the runs " + String.join(", ", inside)
                        + ": " + verb + " one of them");
            }
        }
        RunDirectory.requireRun(dir);
    }

    /** The runs directly inside {@code dir}, as "name/", in the order they were made. */
    private static List<String> runsIn(Path dir) {
        List<Path> runs;
        try (Stream<Path> s = Files.list(dir)) {
            runs = s.filter(p -> Files.isRegularFile(p.resolve(RunDirectory.SPEC))).toList();
        } catch (IOException e) {
            return List.of();
        }
        return runs.stream().sorted(Comparator.comparing((Path p) -> made(p)).thenComparing(Path::toString))
                .map(p -> p.getFileName() + "/").toList();
    }

    private static FileTime made(Path run) {
        try {
            return Files.getLastModifiedTime(run.resolve(RunDirectory.SPEC));
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    /** The path with every link resolved, so a run reached through a symbolic link is known as itself. */
    private static Path realPath(Path dir) {
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            return dir.toAbsolutePath().normalize();
        }
    }

    /**
     * Who holds the run's lock ({@link RunDirectory}: a process running, resuming or reporting it), or null when it
     * is free. Tested with a shared lock on a read-only channel, released at once: nothing is written.
     */
    static String lockHolder(Path dir) {
        Path file = dir.resolve(RunDirectory.LOCK);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            FileLock lock;
            try {
                lock = ch.tryLock(0, Long.MAX_VALUE, true);
            } catch (OverlappingFileLockException heldHere) {
                lock = null;
            }
            if (lock != null) {
                lock.release();
                return null;
            }
        } catch (IOException e) {
            return null; // a lock we cannot test: read the run as it is
        }
        String pid;
        try {
            pid = Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            pid = "";
        }
        return pid.matches("\\d+") ? "fsil process (pid " + pid + ")" : "another fsil process";
    }

    private static FsilException unfinished(Path dir, String why) {
        return new FsilException(dir + " is unfinished: " + why + "; 'fsil run --resume " + dir + "' completes it, "
                + "then compare it");
    }

    private static JsonNode config(Path dir) {
        Path file = dir.resolve(SettingOptions.CONFIG);
        if (!Files.isRegularFile(file)) {
            throw new FsilException(dir + " has no " + SettingOptions.CONFIG + ": which data the run saw is unknown, "
                    + "so it cannot be paired with anything");
        }
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new FsilException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Why the stored rows are not a finished run's, or null: each method of config.json must hold, on each dataset
     * and setting, the same units 0..n-1 (the runner gives every method the same units). A run cut short and then
     * summarised by {@code fsil report} is caught here unless every method stopped at the same unit.
     */
    static String gap(JsonNode config, List<UnitRecord> rows) {
        Map<List<String>, Set<Integer>> held = new HashMap<>();
        for (UnitRecord r : rows) {
            held.computeIfAbsent(List.of(r.method(), r.dataset(), r.setting()), k -> new TreeSet<>()).add(r.unit());
        }
        List<String> methods = new ArrayList<>();
        config.path("methods").forEach(m -> methods.add(m.path("label").asText()));
        List<String> datasets = new ArrayList<>();
        config.path("datasets").fieldNames().forEachRemaining(datasets::add);
        List<String> settings = new ArrayList<>();
        config.path("settings").forEach(s -> settings.add(s.path("label").asText()));
        for (String d : datasets) {
            for (String s : settings) {
                String most = null;
                Set<Integer> all = Set.of();
                for (String m : methods) {
                    Set<Integer> u = held.getOrDefault(List.of(m, d, s), Set.of());
                    if (u.size() > all.size()) {
                        most = m;
                        all = u;
                    }
                }
                if (all.isEmpty()) {
                    return "no method holds a unit of " + d + " / " + s;
                }
                for (int i = 0; i < all.size(); i++) {
                    if (!all.contains(i)) {
                        return most + " lacks unit " + i + " of " + d + " / " + s;
                    }
                }
                for (String m : methods) {
                    Set<Integer> u = held.getOrDefault(List.of(m, d, s), Set.of());
                    if (!u.equals(all)) {
                        return m + " holds " + u.size() + " unit(s) of " + d + " / " + s + " where " + most
                                + " holds " + all.size();
                    }
                }
            }
        }
        return null;
    }

    /** Every dataset held by several runs must be the same data in each (the fingerprint config.json records). */
    private static void sameData(List<Path> dirs, List<JsonNode> configs) {
        Map<String, Integer> first = new HashMap<>();
        for (int i = 0; i < configs.size(); i++) {
            JsonNode ds = configs.get(i).path("datasets");
            for (java.util.Iterator<String> it = ds.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                Integer j = first.putIfAbsent(name, i);
                if (j == null) {
                    continue;
                }
                JsonNode a = configs.get(j).path("datasets").path(name);
                JsonNode b = ds.path(name);
                String fa = a.path("fingerprint").asText();
                String fb = b.path("fingerprint").asText();
                if (fa.isEmpty() || fb.isEmpty() || !fa.equals(fb)) {
                    String backbones = a.path("backbone").asText().equals(b.path("backbone").asText()) ? ""
                            : "; backbones " + a.path("backbone").asText() + " and " + b.path("backbone").asText();
                    throw new FsilException("runs " + dirs.get(j) + " and " + dirs.get(i) + " ran on different data "
                            + "for dataset " + name + " (fingerprints " + shortPrint(fa) + " and " + shortPrint(fb)
                            + " in their " + SettingOptions.CONFIG + backbones + "): their units are not the same "
                            + "tasks; compare runs made on the same data");
                }
            }
        }
    }

    private static String shortPrint(String fingerprint) {
        return fingerprint.isEmpty() ? "(none)" : fingerprint.substring(0, Math.min(12, fingerprint.length())) + "...";
    }

    private static String name(Path dir) {
        Path f = dir.toAbsolutePath().normalize().getFileName();
        return f == null ? dir.toString() : f.toString();
    }

    private static UnitRecord relabel(UnitRecord r, String label) {
        return new UnitRecord(label, r.methodId(), r.dataset(), r.protocol(), r.setting(), r.unit(), r.firstTask(),
                r.tasks(), r.orderSeed(), r.trainSeed(), r.status(), r.error(), r.seconds(), r.metrics());
    }
}
