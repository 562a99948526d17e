package fsil.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The module graph of README's architecture section, checked with ArchUnit on the main classes of every module.
 *
 * <p><b>Where the classes come from (the design).</b> The modules are those of the root {@code pom.xml}: its
 * {@code <module>} entries, those inside {@code <profiles>} (engine-spark) being optional, plus the stand-alone
 * {@code plugin-template} build (optional too). Each module's {@code target/classes} directory is imported by path,
 * from the repository root found upwards from the working directory, so that every class is known by the module it
 * was compiled in: the benchmarks sit in the packages of the code they measure, and "nothing depends on benchmarks"
 * can only be said by module. A required module without {@code target/classes} fails the test (build it first); an
 * optional one that has not been built is skipped and the test prints so. This test lives in a module of its own,
 * listed last in the root pom, with a test-scoped dependency on every module (libraries excluded): that only
 * orders the reactor, so a plain {@code mvn verify} of a clean clone (or {@code mvn verify -pl architecture-test
 * -am}) compiles every module before these rules run, and {@code -Pspark} builds engine-spark first and checks it.
 * {@link #everyModuleIsImportedAndOrderedBeforeThisTest()} fails when a module is added to the root pom but not here.
 *
 * <p><b>The rules.</b> Package rules hold for every class of the package, whatever module holds it: a benchmark in
 * {@code fsil.methods.ppca} is held to the methods rules, so it uses only the api, core and its own method. Each
 * module's classes must reside in its own packages ({@link #PACKAGES}), which makes the package rules module rules.
 * {@code benchmarks} and {@code notebooks} may depend on anything (benchmarks from packages of their own,
 * {@code fsil.bench..}), and no other module depends on them or on engine-spark. {@link #rulesRejectViolations()}
 * shows on deliberately wrong classes (this module's test fixtures) that the rules do fail.
 */
class ArchitectureTest {
    /** The packages of each module's main classes; a new module needs a line here. */
    static final Map<String, String> PACKAGES = Map.ofEntries(
            Map.entry("api", "fsil.api.."),
            Map.entry("core", "fsil.core.."),
            Map.entry("testkit", "fsil.testkit.."),
            Map.entry("data", "fsil.data.."),
            Map.entry("eval", "fsil.eval.."),
            Map.entry("app", "fsil.app.."),
            Map.entry("notebooks", "fsil.notebook.."),
            Map.entry("benchmarks", "fsil.."),
            Map.entry("engine-spark", "fsil.engine.spark.."),
            Map.entry("backbones-djl", "fsil.backbones.djl.."),
            Map.entry("plugin-template", ".."));

    /** The stand-alone build of the plugin template, checked when it has been built. */
    static final String TEMPLATE = "plugin-template";

    /** This module: tests only. */
    static final String SELF = "architecture-test";

    static Path root;
    /** module name -> its target/classes, for the modules that were imported */
    static final Map<String, Path> imported = new LinkedHashMap<>();
    static final List<String> required = new ArrayList<>();
    static final List<String> optional = new ArrayList<>();
    static JavaClasses main;

    @BeforeAll
    static void load() throws IOException {
        root = repositoryRoot();
        String pom = Files.readString(root.resolve("pom.xml"));
        int profiles = pom.indexOf("<profiles>");
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        while (m.find()) {
            (profiles >= 0 && m.start() > profiles ? optional : required).add(m.group(1).strip());
        }
        optional.add(TEMPLATE);
        List<String> missing = new ArrayList<>();
        for (String module : required) {
            if (module.equals(SELF)) {
                continue;
            }
            Path classes = root.resolve(module).resolve("target/classes");
            if (Files.isDirectory(classes)) {
                imported.put(module, classes);
            } else {
                missing.add(module);
            }
        }
        if (!missing.isEmpty()) {
            fail("modules without target/classes: " + missing + "; compile them first (mvn verify -pl "
                    + "architecture-test -am compiles every module)");
        }
        for (String module : optional) {
            Path classes = root.resolve(module).resolve("target/classes");
            if (Files.isDirectory(classes)) {
                imported.put(module, classes);
            } else {
                System.out.println("ArchitectureTest: skipped optional module " + module + ": not built ("
                        + classes + " is missing)");
            }
        }
        main = new ClassFileImporter().importPaths(List.copyOf(imported.values()));
        System.out.println("ArchitectureTest: " + main.size() + " classes of " + imported.keySet());
    }

    static Path repositoryRoot() throws IOException {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path pom = p.resolve("pom.xml");
            if (Files.isRegularFile(pom)) {
                String text = Files.readString(pom);
                if (text.contains("<modules>") && text.contains("<packaging>pom</packaging>")) {
                    return p;
                }
            }
        }
        throw new IllegalStateException("no fsil root pom.xml above " + Path.of("").toAbsolutePath());
    }

    /** The module whose target/classes holds a class file, or null (a class outside the import). */
    static String moduleOf(JavaClass c) {
        Optional<URI> uri = c.getSource().map(s -> s.getUri());
        if (uri.isEmpty() || !"file".equals(uri.get().getScheme())) {
            return null;
        }
        Path file = Path.of(uri.get());
        for (Map.Entry<String, Path> e : imported.entrySet()) {
            if (file.startsWith(e.getValue())) {
                return e.getKey();
            }
        }
        return null;
    }

    static DescribedPredicate<JavaClass> inModule(String module) {
        return DescribedPredicate.describe("are compiled in module " + module, c -> module.equals(moduleOf(c)));
    }

    static String packagesOf(String module) {
        if (module.startsWith("methods-")) {
            return "fsil.methods." + module.substring("methods-".length()) + "..";
        }
        return PACKAGES.get(module);
    }

    /** Classes in {@code pkg} that use fsil classes outside {@code allowed}. */
    static ArchRule fsilOnly(String pkg, String... allowed) {
        return noClasses().that().resideInAPackage(pkg).should().dependOnClassesThat(
                resideInAPackage("fsil..").and(not(resideInAnyPackage(allowed))));
    }

    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("fsil.(**)").should().beFreeOfCycles();

    static final ArchRule API_USES_THE_JDK_ONLY = classes().that().resideInAPackage("fsil.api..").should()
            .onlyDependOnClassesThat().resideInAnyPackage("fsil.api..", "java..");

    static final ArchRule CORE_USES_ONLY_THE_API = fsilOnly("fsil.core..", "fsil.api..", "fsil.core..");

    /**
     * The kits check methods (api), the data layer's plugin kinds, datasets and backbones (data, core), and the
     * evaluation layer's kinds: metrics (their SPI and store), protocols and engines (which the engine kit drives
     * through runs), never a method, the application or an engine module.
     */
    static final ArchRule TESTKIT_USES_ONLY_THE_API = fsilOnly("fsil.testkit..", "fsil.api..", "fsil.core..",
            "fsil.data..", "fsil.eval.metrics..", "fsil.eval.protocol..", "fsil.eval.store..", "fsil.eval.run..",
            "fsil.testkit..");

    static final ArchRule METHODS_USE_ONLY_THE_API_AND_CORE = fsilOnly("fsil.methods..", "fsil.api..",
            "fsil.core..", "fsil.methods..");

    static final ArchRule METHODS_DO_NOT_USE_EACH_OTHER = slices().matching("fsil.methods.(*)..").should()
            .notDependOnEachOther();

    static final ArchRule DATA_KNOWS_NO_PROTOCOL_METHOD_OR_APPLICATION = fsilOnly("fsil.data..", "fsil.api..",
            "fsil.core..", "fsil.data..");

    static final ArchRule EVAL_KNOWS_NO_METHOD_AND_NO_APPLICATION = fsilOnly("fsil.eval..", "fsil.api..",
            "fsil.core..", "fsil.data..", "fsil.eval..");

    static final ArchRule EVAL_HAS_NO_GUICE = noClasses().that().resideInAPackage("fsil.eval..").should()
            .dependOnClassesThat().resideInAnyPackage("com.google.inject..", "jakarta.inject..");

    static final ArchRule APP_SEES_NO_METHOD_BENCHMARK_NOTEBOOK_OR_ENGINE = fsilOnly("fsil.app..", "fsil.api..",
            "fsil.core..", "fsil.data..", "fsil.eval..", "fsil.app..");

    /**
     * The application is assembled in app, in the notebooks' entry point and on engine-spark's executors: Guice is
     * used there only. A plugin may mark its constructor with the standard {@code @jakarta.inject.Inject} (and api,
     * JDK-only, may not even do that: see {@link #apiUsesTheJdkOnly}).
     */
    static final ArchRule GUICE_ONLY_WHERE_THE_APPLICATION_IS_ASSEMBLED = noClasses().that()
            .resideOutsideOfPackages("fsil.app..", "fsil.notebook..", "fsil.engine..").should()
            .dependOnClassesThat().resideInAnyPackage("com.google.inject..");

    /** DJL (and its native engines) stays in the backbones-djl module; passes vacuously until that module lands. */
    static final ArchRule ONLY_BACKBONES_DJL_SEES_DJL = noClasses().that()
            .resideOutsideOfPackage("fsil.backbones.djl..").should().dependOnClassesThat()
            .resideInAPackage("ai.djl..");

    @Test
    void noPackageCycles() {
        NO_PACKAGE_CYCLES.check(main);
    }

    @Test
    void apiUsesTheJdkOnly() {
        API_USES_THE_JDK_ONLY.check(main);
    }

    @Test
    void coreIsNumericsBelowEverythingButTheApi() {
        CORE_USES_ONLY_THE_API.check(main);
    }

    @Test
    void testkitUsesTheApiTheDataLayerAndTheEvaluationSpisOnly() {
        TESTKIT_USES_ONLY_THE_API.check(main);
    }

    /** Also the benchmarks that sit in a method's package: api, core and that method only. */
    @Test
    void methodsUseOnlyTheApiAndCoreAndNotEachOther() {
        METHODS_USE_ONLY_THE_API_AND_CORE.check(main);
        METHODS_DO_NOT_USE_EACH_OTHER.check(main);
    }

    @Test
    void dataKnowsNoProtocolMethodOrApplication() {
        DATA_KNOWS_NO_PROTOCOL_METHOD_OR_APPLICATION.check(main);
    }

    @Test
    void evalKnowsNoMethodAndNoApplication() {
        EVAL_KNOWS_NO_METHOD_AND_NO_APPLICATION.check(main);
        EVAL_HAS_NO_GUICE.check(main);
    }

    /** Methods reach the application at run time only (runtime scope, ServiceLoader). */
    @Test
    void appKnowsNoMethodNotebookBenchmarkOrEngine() {
        APP_SEES_NO_METHOD_BENCHMARK_NOTEBOOK_OR_ENGINE.check(main);
    }

    @Test
    void onlyTheApplicationUsesGuice() {
        GUICE_ONLY_WHERE_THE_APPLICATION_IS_ASSEMBLED.check(main);
    }

    @Test
    void onlyBackbonesDjlSeesDjl() {
        ONLY_BACKBONES_DJL_SEES_DJL.check(main);
    }

    /** benchmarks, notebooks and engine-spark are leaves: they may use anything, nothing uses them. */
    @Test
    void nothingDependsOnBenchmarksNotebooksOrEngineSpark() {
        for (String leaf : List.of("benchmarks", "notebooks", "engine-spark")) {
            noClasses().that(not(inModule(leaf))).should().dependOnClassesThat(inModule(leaf)).allowEmptyShould(true)
                    .check(main);
        }
    }

    /** So that the package rules above are module rules too. */
    @Test
    void everyModuleKeepsToItsPackages() {
        for (String module : imported.keySet()) {
            String packages = packagesOf(module);
            assertTrue(packages != null, "module " + module + " has no line in ArchitectureTest.PACKAGES: say "
                    + "which packages it holds and what it may use");
            classes().that(inModule(module)).should().resideInAPackage(packages).allowEmptyShould(true)
                    .check(main);
        }
        noClasses().that(not(inModule("benchmarks"))).should().resideInAPackage("fsil.bench..")
                .allowEmptyShould(true).check(main);
    }

    /** The template is what a plugin author copies: the SPI is all it may use of fsil. */
    @Test
    void thePluginTemplateUsesOnlyTheApi() {
        if (!imported.containsKey(TEMPLATE)) {
            System.out.println("ArchitectureTest: plugin-template not built, not checked");
        }
        noClasses().that(inModule(TEMPLATE)).should().dependOnClassesThat(
                resideInAPackage("fsil..").and(not(resideInAPackage("fsil.api..")))).allowEmptyShould(true)
                .check(main);
    }

    /** A module of the root pom missing from this module's dependencies could be compiled after this test. */
    @Test
    void everyModuleIsImportedAndOrderedBeforeThisTest() throws IOException {
        String own = Files.readString(root.resolve("architecture-test/pom.xml"));
        for (String module : required) {
            if (!module.equals(SELF)) {
                assertTrue(imported.containsKey(module), module);
                assertTrue(own.contains("<artifactId>" + module + "</artifactId>"), "architecture-test/pom.xml "
                        + "needs a test-scoped dependency on " + module + " so that the reactor builds it first");
            }
        }
        for (String module : optional) {
            if (!module.equals(TEMPLATE)) {
                assertTrue(own.contains("<artifactId>" + module + "</artifactId>"), "architecture-test/pom.xml "
                        + "needs a dependency on " + module + " in the profile that builds it");
            }
        }
        assertEquals(SELF, required.get(required.size() - 1),
                "architecture-test should be the last module of the root pom");
    }

    /** Each rule fails on a class that breaks it (the fixtures in this module's test sources). */
    @Test
    void rulesRejectViolations() {
        JavaClasses fixtures = new ClassFileImporter().importPackages("fsil.methods.archfixture",
                "fsil.methods.archfixtureb", "fsil.api.archfixture", "fsil.data.archfixture",
                "fsil.eval.archfixture", "fsil.archfixture");
        assertTrue(fixtures.size() >= 6, "fixtures: " + fixtures.size());
        for (ArchRule rule : List.of(NO_PACKAGE_CYCLES, API_USES_THE_JDK_ONLY, METHODS_USE_ONLY_THE_API_AND_CORE,
                METHODS_DO_NOT_USE_EACH_OTHER, DATA_KNOWS_NO_PROTOCOL_METHOD_OR_APPLICATION,
                EVAL_KNOWS_NO_METHOD_AND_NO_APPLICATION, GUICE_ONLY_WHERE_THE_APPLICATION_IS_ASSEMBLED,
                ONLY_BACKBONES_DJL_SEES_DJL)) {
            assertTrue(!rule.evaluate(fixtures).getFailureReport().isEmpty(), "no violation found by: "
                    + rule.getDescription());
        }
    }
}
