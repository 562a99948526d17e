package fsil.eval.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fsil.api.FsilException;
import fsil.api.Method;
import fsil.api.Params;
import fsil.api.Registry;
import fsil.core.random.RandomStreams;
import fsil.data.FeatureSet;
import fsil.eval.protocol.Protocol;
import fsil.eval.protocol.ProtocolPlan;
import fsil.eval.store.UnitRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A run resolved and validated before any unit runs: the method variants (parameters checked), the protocol's
 * settings (options checked), the data loaded, and every (variant, dataset, setting) planned into units. Each
 * task draws from seeds derived from (seed, dataset, setting, task index) only, so the numbers do not depend on
 * the thread count, the engine, or which units ran before a crash. Every engine runs the units this plan lists.
 */
public final class RunPlan {

    /** A method variant with validated parameters. */
    public record Variant(String label, Method method, Params params) {
    }

    /** A protocol setting: its options and label. */
    public record Setting(String label, Params options) {
    }

    /** One variant on one dataset in one setting: its tasks, grouped into units. */
    public record Group(Variant variant, String dataset, Setting setting, ProtocolPlan plan, long seedBase) {

        /** The method's seed for task {@code task}: derived from (train seed, dataset|setting, task) only. */
        public long trainSeed(int task) {
            return RandomStreams.derive(seedBase, task);
        }

        public int units() {
            int per = plan.tasksPerUnit();
            return (plan.tasks() + per - 1) / per;
        }
    }

    /** Unit {@code index} of a group: tasks [firstTask, firstTask + tasks). */
    public record Unit(Group group, int index) {
        public int firstTask() {
            return index * group.plan().tasksPerUnit();
        }

        public int tasks() {
            return Math.min(group.plan().tasksPerUnit(), group.plan().tasks() - firstTask());
        }

        public UnitRecord.Key key() {
            return new UnitRecord.Key(group.variant().label(), group.dataset(), group.setting().label(), index);
        }
    }

    private final RunSpec spec;
    private final Protocol protocol;
    private final List<Variant> variants;
    private final List<Setting> settings;
    private final Map<String, FeatureSet> data;
    private final List<Group> groups;
    private final Map<Selection.Key, Map<String, String>> choices;
    private final Calibration.Temperatures temperatures;
    private final Map<UnitRecord.Key, Unit> byKey = new HashMap<>();
    private final List<Unit> units = new ArrayList<>();

    private RunPlan(RunSpec spec, Protocol protocol, List<Variant> variants, List<Setting> settings,
                    Map<String, FeatureSet> data, List<Group> groups, Map<Selection.Key, Map<String, String>> choices,
                    Calibration.Temperatures temperatures) {
        this.spec = spec;
        this.choices = choices;
        this.temperatures = temperatures;
        this.protocol = protocol;
        this.variants = variants;
        this.settings = settings;
        this.data = data;
        this.groups = groups;
        // unit order: dataset, setting, unit index, variant (methods interleave, so partial runs compare fairly)
        Map<String, List<Group>> bySettingKey = new LinkedHashMap<>();
        for (Group g : groups) {
            bySettingKey.computeIfAbsent(g.dataset() + "|" + g.setting().label(), k -> new ArrayList<>()).add(g);
        }
        for (List<Group> gs : bySettingKey.values()) {
            int n = gs.get(0).units();
            for (int i = 0; i < n; i++) {
                for (Group g : gs) {
                    Unit u = new Unit(g, i);
                    units.add(u);
                    byKey.put(u.key(), u);
                }
            }
        }
    }

    /** Validates methods, parameters, protocol, options and capabilities, then loads the data and plans. */
    public static RunPlan resolve(RunSpec spec, Registry<Method> methods, Registry<Protocol> protocols,
                                  FeatureSource features, Path cacheDir, Progress progress) {
        Protocol protocol = protocols.get(spec.protocol());
        List<Variant> variants = variants(spec, methods, protocol);
        List<Setting> settings = settings(protocol, spec.options());
        Map<String, FeatureSet> data = new LinkedHashMap<>();
        List<Group> groups = new ArrayList<>();
        for (String ds : spec.datasets()) {
            features.check(ds, spec.backbone());
        }
        for (String ds : spec.datasets()) {
            if (data.containsKey(ds)) {
                throw new FsilException("dataset " + ds + " is listed twice");
            }
            progress.message("loading " + ds + " through backbone " + spec.backbone());
            FeatureSet fs = features.load(ds, spec.backbone(), spec.backboneSeed(), cacheDir);
            data.put(ds, fs);
            for (Setting s : settings) {
                ProtocolPlan plan = protocol.plan(fs, s.options(), spec.orderSeed());
                long seedBase = RandomStreams.derive(spec.trainSeed(), ds + "|" + s.label());
                for (Variant v : variants) {
                    groups.add(new Group(v, ds, s, plan, seedBase));
                }
            }
        }
        checkBaseClasses(groups, spec, protocol, cacheDir);
        RunPlan plan = new RunPlan(spec, protocol, variants, settings, data, groups, Map.of(), null);
        Selection.check(plan);
        Calibration.check(plan);
        return plan;
    }

    /**
     * This plan with the parameters chosen on the validation classes: the groups of each chosen (variant, dataset,
     * setting) run the variant with the choice applied.
     */
    public RunPlan withChoices(Map<Selection.Key, Map<String, String>> chosen) {
        List<Group> gs = new ArrayList<>();
        for (Group g : groups) {
            Map<String, String> c = chosen.get(new Selection.Key(g.variant().label(), g.dataset(), g.setting().label()));
            if (c == null) {
                gs.add(g);
            } else {
                VariantSpec vs = spec.methods().stream().filter(x -> x.label().equals(g.variant().label()))
                        .findFirst().orElseThrow();
                Variant v = new Variant(g.variant().label(), g.variant().method(),
                        Selection.chosenParams(g.variant().method(), vs, c));
                gs.add(new Group(v, g.dataset(), g.setting(), g.plan(), g.seedBase()));
            }
        }
        RunPlan p = new RunPlan(spec, protocol, variants, settings, data, gs, Map.copyOf(chosen), temperatures);
        p.fingerprints.putAll(fingerprints);
        return p;
    }

    /** This plan with the fitted temperatures applied to every group's probabilities (raw metrics stay). */
    public RunPlan withTemperatures(Calibration.Temperatures t) {
        RunPlan p = new RunPlan(spec, protocol, variants, settings, data, groups, choices, t);
        p.fingerprints.putAll(fingerprints);
        return p;
    }

    /** The temperature of a group's probabilities, or null when the run is not temperature-scaled. */
    public Double temperature(Group g) {
        return temperatures == null ? null : temperatures.of(g.variant().label(), g.dataset(), g.setting().label());
    }

    /**
     * This plan with the decisions a driver's config.json records (parameters chosen on validation classes,
     * fitted temperatures): how an executor of a distributed engine, which rebuilds the plan from the spec, runs the
     * units exactly as the driver planned them.
     */
    public RunPlan withDecisionsOf(com.fasterxml.jackson.databind.JsonNode config) {
        RunPlan p = this;
        com.fasterxml.jackson.databind.JsonNode selected = config.get("selected");
        if (selected != null && selected.isArray()) {
            Map<Selection.Key, Map<String, String>> chosen = new LinkedHashMap<>();
            for (com.fasterxml.jackson.databind.JsonNode e : selected) {
                Map<String, String> params = new LinkedHashMap<>();
                e.get("params").fields().forEachRemaining(f -> params.put(f.getKey(), f.getValue().asText()));
                chosen.put(new Selection.Key(e.get("method").asText(), e.get("dataset").asText(),
                        e.get("setting").asText()), params);
            }
            p = p.withChoices(chosen);
        }
        com.fasterxml.jackson.databind.JsonNode calibration = config.get("calibration");
        if (calibration != null && calibration.has("temperatures")) {
            p = p.withTemperatures(Calibration.Temperatures.fromJson(calibration));
        }
        return p;
    }

    /** The parameters chosen on the validation classes per (variant, dataset, setting); empty without selection. */
    public Map<Selection.Key, Map<String, String>> choices() {
        return choices;
    }

    /** Refuses, before any work, a method that needs base classes on a dataset and setting that provide none. */
    private static void checkBaseClasses(List<Group> groups, RunSpec spec, Protocol protocol, Path cacheDir) {
        Map<String, Boolean> hasBase = new HashMap<>();
        for (Group g : groups) {
            if (!g.variant().method().needsBaseClasses(g.variant().params())) {
                continue;
            }
            boolean base = hasBase.computeIfAbsent(g.dataset() + "|" + g.setting().label(), k -> !g.plan()
                    .background(spec.trainSeed(), java.util.Optional.empty()).base().isEmpty());
            if (!base) {
                throw new FsilException("method '" + g.variant().label() + "' needs base classes, and "
                        + protocol.id() + " on " + g.dataset() + " (" + g.setting().label() + ") gives it none: the "
                        + "dataset has no base split, or the protocol draws the base classes itself. For your own "
                        + "features, list the base classes in splits/base.txt (data/DATA.md); or leave the method out");
            }
        }
    }

    /** Validates a spec's methods without loading data: ids, parameters, capabilities, unique labels. */
    public static List<Variant> variants(RunSpec spec, Registry<Method> methods, Protocol protocol) {
        List<Variant> out = new ArrayList<>();
        Set<String> labels = new HashSet<>();
        for (VariantSpec v : spec.methods()) {
            Method m = methods.get(v.method());
            Params p = m.params(v.params());
            String why = protocol.incompatibility(m);
            if (why != null) {
                throw new FsilException("method '" + m.id() + "' cannot run protocol " + protocol.id() + ": " + why
                        + ". Run 'fsil methods' to see which methods support it.");
            }
            if (!labels.add(v.label())) {
                throw new FsilException("two method variants have the label '" + v.label()
                        + "'; give one an explicit label, e.g. mylabel:" + v.method() + "[...]");
            }
            out.add(new Variant(v.label(), m, p));
        }
        return out;
    }

    /** Expands options with several values into settings (cartesian product, in option order). */
    public static List<Setting> settings(Protocol protocol, Map<String, List<String>> options) {
        List<Map<String, String>> combos = new ArrayList<>();
        combos.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<String>> e : options.entrySet()) {
            if (e.getValue().isEmpty()) {
                throw new FsilException("option '" + e.getKey() + "' has no value");
            }
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : combos) {
                for (String v : e.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(c);
                    m.put(e.getKey(), v);
                    next.add(m);
                }
            }
            combos = next;
        }
        List<Setting> out = new ArrayList<>();
        Set<String> labels = new HashSet<>();
        for (Map<String, String> c : combos) {
            Params p = protocol.params(c);
            String label = protocol.settingLabel(p);
            if (!labels.add(label)) {
                label = label + " " + p.changedFromDefaults();
            }
            out.add(new Setting(label, p));
        }
        return out;
    }

    public RunSpec spec() {
        return spec;
    }

    public Protocol protocol() {
        return protocol;
    }

    public List<Variant> variants() {
        return variants;
    }

    public List<Setting> settings() {
        return settings;
    }

    public Map<String, FeatureSet> data() {
        return data;
    }

    public List<Group> groups() {
        return groups;
    }

    /** Every unit, in the order the runner takes them. */
    public List<Unit> units() {
        return units;
    }

    /** Tasks (episodes, runs) of the whole plan. */
    public long tasks() {
        return groups.stream().mapToLong(g -> g.plan().tasks()).sum();
    }

    /** The planned unit with this key, or null. */
    public Unit unit(UnitRecord.Key key) {
        return byKey.get(key);
    }

    /** Null when a stored row is one of this plan's units with the plan's seeds; otherwise why not. */
    public String mismatch(UnitRecord r) {
        Unit u = byKey.get(r.key());
        if (u == null) {
            return r.key() + " is not a unit of this run's plan";
        }
        Group g = u.group();
        if (!r.methodId().equals(g.variant().method().id()) || !r.protocol().equals(protocol.id())) {
            return r.key() + " was made by method " + r.methodId() + " under protocol " + r.protocol();
        }
        if (r.firstTask() != u.firstTask() || r.tasks() != u.tasks()) {
            return r.key() + " holds tasks " + r.firstTask() + ".." + (r.firstTask() + r.tasks() - 1)
                    + ", the plan's unit holds " + u.firstTask() + ".." + (u.firstTask() + u.tasks() - 1);
        }
        if (r.orderSeed() != spec.orderSeed() || r.trainSeed() != g.trainSeed(u.firstTask())) {
            return r.key() + " was made with other seeds (order seed " + r.orderSeed() + ", the spec's is "
                    + spec.orderSeed() + ")";
        }
        return null;
    }

    /** Fingerprints of the plan's datasets (one pass over the features each), computed once per dataset. */
    private final Map<String, String> fingerprints = new java.util.concurrent.ConcurrentHashMap<>();

    private String fingerprint(String dataset, FeatureSet f) {
        return fingerprints.computeIfAbsent(dataset, k -> f.fingerprint());
    }

    /** What config.json holds: every parameter resolved (defaults included), the data and its fingerprints. */
    public ObjectNode config() {
        ObjectNode m = new ObjectMapper().createObjectNode();
        m.put("protocol", protocol.id());
        protocol.executionOptions().stream().sorted().forEach(m.putArray("execution_options")::add);
        ArrayNode ss = m.putArray("settings");
        for (Setting s : settings) {
            ObjectNode sm = ss.addObject();
            sm.put("label", s.label());
            s.options().asText().forEach(sm.putObject("options")::put);
        }
        ArrayNode vs = m.putArray("methods");
        for (Variant v : variants) {
            ObjectNode vm = vs.addObject();
            vm.put("label", v.label());
            vm.put("method", v.method().id());
            v.params().asText().forEach(vm.putObject("params")::put);
        }
        ObjectNode ds = m.putObject("datasets");
        data.forEach((k, f) -> {
            ObjectNode d = ds.putObject(k);
            d.put("key", f.key());
            d.put("fingerprint", fingerprint(k, f));
            d.put("backbone", f.backbone());
            d.put("classes", f.classes().size());
            d.put("dimension", f.dimension());
            d.put("train", f.train().size());
            d.put("test", f.test().size());
            ArrayNode names = d.putArray("class_names");
            f.classes().names().forEach(names::add);
        });
        if (!choices.isEmpty()) {
            ArrayNode sel = m.putArray("selected");
            for (Group g : groups) {
                Map<String, String> c = choices.get(new Selection.Key(g.variant().label(), g.dataset(),
                        g.setting().label()));
                if (c != null) {
                    ObjectNode o = sel.addObject();
                    o.put("method", g.variant().label());
                    o.put("dataset", g.dataset());
                    o.put("setting", g.setting().label());
                    c.forEach(o.putObject("params")::put);
                }
            }
        }
        if (temperatures != null) {
            m.set("calibration", temperatures.toJson());
        }
        m.put("order_seed", spec.orderSeed());
        m.put("train_seed", spec.trainSeed());
        m.put("backbone_seed", spec.backboneSeed());
        m.put("threads", spec.threads());
        return m;
    }
}
