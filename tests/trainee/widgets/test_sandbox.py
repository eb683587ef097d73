"""The sandboxes (``helpers/trainee/widgets/sandbox.py``): edit an input, see the check's result live, driven with no front end."""

from __future__ import annotations

from helpers.trainee.widgets import SentinelSandbox, TargetScopeSandbox


def test_target_scope_sandbox_updates_live_and_shows_clear_errors() -> None:
    sandbox = TargetScopeSandbox()
    assert "&quot;preserved&quot;:true" in sandbox.result.value
    sandbox.inputs["rewritten"].value = '["induction"]'
    assert "refresher is missing" in sandbox.result.value
    sandbox.inputs["rewritten"].value = '["induction", 7]'
    assert "rewritten[1] is 7, expected a string ID" in sandbox.result.value
    assert "Traceback" not in sandbox.result.value
    sandbox.inputs["rewritten"].value = '["induction"'
    assert "rewritten, line 1: not valid JSON" in sandbox.result.value
    sandbox.inputs["rewritten"].value = '["induction", "refresher"]'
    sandbox.inputs["unresolved"].value = '["the spring course"]'
    assert "needs staff labels" in sandbox.result.value
    assert "the spring course" in sandbox.describe()


def test_sentinel_sandbox_shows_diffs_and_refuses_bad_keys() -> None:
    sandbox = SentinelSandbox()
    assert "&quot;intact&quot;:true" in sandbox.result.value
    sandbox.inputs["proposed"].value = '{"S1": "R ", "S2": "A"}'
    assert "S1 changed: R{+·+}" in sandbox.result.value
    sandbox.inputs["proposed"].value = '{"S1": "R", "S1": "S"}'
    assert "duplicate key &quot;S1&quot;" in sandbox.result.value
    sandbox.inputs["baseline"].value = "{}"
    sandbox.inputs["proposed"].value = '{"S1": "R"}'
    assert "baseline has no sentinel IDs" in sandbox.result.value
    sandbox.inputs["baseline"].value = '{"<b>S</b>": "R", "<i>T</i>": "A"}'
    sandbox.inputs["proposed"].value = '{"<b>S</b>": "<script>x</script>"}'
    shown = sandbox.result.value
    assert "&lt;b&gt;S&lt;/b&gt; changed" in shown
    assert "&lt;i&gt;T&lt;/i&gt; is missing" in shown
    assert "&lt;script&gt;" in shown
    assert "<b>S</b>" not in shown and "<i>T</i>" not in shown and "<script>" not in shown


def test_lone_surrogates_reach_html_as_escapes() -> None:
    sandbox = TargetScopeSandbox()
    sandbox.inputs["rewritten"].value = '["induction", "\\ud800"]'
    assert "⟨U+D800⟩ was added" in sandbox.result.value
    sandbox.result.value.encode("utf-8")  # a raw surrogate would not encode


def test_the_text_picture_shows_each_input_and_the_result_or_the_error() -> None:
    sandbox = SentinelSandbox({"S1": "R"}, {"S1": "Q"})
    assert sandbox.describe().splitlines() == [
        "Sandbox (sentinels), edit the JSON:",
        '  baseline: {"S1":"R"}',
        '  proposed: {"S1":"Q"}',
        "Result:",
        '{"missing":[],"changed":["S1"],"intact":false}',
        "- S1 changed: [-R-]{+Q+}.",
        "- Hold the key before scoring: fix it, or revise the baseline if the change is authorised.",
    ]
    sandbox.inputs["proposed"].value = "{"
    assert (
        sandbox.describe()
        .splitlines()[-1]
        .startswith("Cannot check this input: proposed, line 1: not valid JSON")
    )
    assert 'role="alert"' in sandbox.result.value


def test_the_sandboxes_start_from_the_inputs_given_and_show_one_area_per_field() -> None:
    sandbox = TargetScopeSandbox(["a"], ["a", "b"])
    assert [area.description for area in sandbox.inputs.values()] == ["original", "rewritten", "unresolved"]
    assert [area.value for area in sandbox.inputs.values()] == ['["a"]', '["a","b"]', "[]"]
    assert "b was added" in sandbox.result.value
    assert list(sandbox.widget.children)[1:] == [*sandbox.inputs.values(), sandbox.result]
    assert list(SentinelSandbox().inputs) == ["baseline", "proposed"]
