// libFuzzer target for the model loader: any bytes must give a model or a LoadError, never a
// crash, a hang or a sanitizer report. Build with clang:
//   cmake -S . -B build/fuzz -DCMAKE_CXX_COMPILER=clang++ -DMBDAE_FUZZ=ON && cmake --build build/fuzz --target fuzz_model_loader
//   build/fuzz/apps/fuzz_model_loader -max_total_time=60 -max_len=8192 examples/models tests/bad_models

#include <cstddef>
#include <cstdint>
#include <string>

#include <mbdae/io/ModelLoader.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const mbdae::io::LoadedModel m = mbdae::io::load_model_text(text, "fuzz.yaml");
    // A model that loads must also be usable by the next stage without crashing.
    (void)m.system.check();
  } catch (const mbdae::io::LoadError& e) {
    if (e.diagnostics().empty()) __builtin_trap();  // an error must say what is wrong
  }
  return 0;
}
