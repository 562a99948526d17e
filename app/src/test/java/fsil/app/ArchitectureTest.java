package fsil.app;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The module graph of README's architecture section, checked on the compiled main classes of every module (the
 * app's test class path holds them all): api <- core <- {data, methods-*} ; data <- eval <- app; methods reach the
 * application only through the api at run time.
 */
class ArchitectureTest {
    static JavaClasses main;

    @BeforeAll
    static void load() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("/test-classes/"))
                .importPackages("fsil");
    }

    @Test
    void noPackageCycles() {
        slices().matching("fsil.(**)").should().beFreeOfCycles().check(main);
    }

    @Test
    void apiUsesTheJdkOnly() {
        classes().that().resideInAPackage("fsil.api..").should().onlyDependOnClassesThat()
                .resideInAnyPackage("fsil.api..", "java..").check(main);
    }

    @Test
    void coreIsNumericsBelowEverythingButTheApi() {
        noClasses().that().resideInAPackage("fsil.core..").should().dependOnClassesThat()
                .resideInAnyPackage("fsil.data..", "fsil.eval..", "fsil.app..", "fsil.methods..", "fsil.notebook..")
                .check(main);
    }

    @Test
    void methodsUseOnlyTheApiAndCoreAndNotEachOther() {
        noClasses().that().resideInAPackage("fsil.methods..").should().dependOnClassesThat()
                .resideInAnyPackage("fsil.data..", "fsil.eval..", "fsil.app..", "fsil.notebook..", "fsil.testkit..")
                .check(main);
        slices().matching("fsil.methods.(*)..").should().notDependOnEachOther().check(main);
    }

    @Test
    void dataKnowsNoProtocolMethodOrApplication() {
        noClasses().that().resideInAPackage("fsil.data..").should().dependOnClassesThat()
                .resideInAnyPackage("fsil.eval..", "fsil.app..", "fsil.methods..", "fsil.notebook..").check(main);
    }

    @Test
    void evalKnowsNoMethodAndNoApplication() {
        noClasses().that().resideInAPackage("fsil.eval..").should().dependOnClassesThat()
                .resideInAnyPackage("fsil.methods..", "fsil.app..", "fsil.notebook..", "com.google.inject..")
                .check(main);
    }

    @Test
    void onlyTheDjlBackbonesSeeDjl() {
        noClasses().that().resideOutsideOfPackage("fsil.backbones.djl..").should().dependOnClassesThat()
                .resideInAnyPackage("ai.djl..").check(main);
        noClasses().that().resideInAPackage("fsil.backbones..").should().dependOnClassesThat()
                .resideInAnyPackage("fsil.eval..", "fsil.app..", "fsil.methods..", "fsil.notebook..").check(main);
    }

    @Test
    void onlyTheApplicationUsesGuice() {
        noClasses().that().resideOutsideOfPackages("fsil.app..", "fsil.notebook..").should().dependOnClassesThat()
                .resideInAnyPackage("com.google.inject..", "jakarta.inject..").check(main);
    }
}
