package infra_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/awslabs/goformation/v7"
	"github.com/awslabs/goformation/v7/cloudformation"
	"github.com/awslabs/goformation/v7/cloudformation/serverless"
	"github.com/awslabs/goformation/v7/intrinsics"

	"cms/runtime/config"
	"cms/runtime/groups"
	"cms/runtime/lambda/lambdagen"
	"cms/runtime/wire"
)

// parse reads template.yaml with goformation. References stay visible as "ref:Name",
// "getatt:Name.Attr" and "select:i:list" markers instead of being resolved away, parameters
// with a default resolve to it, and Fn::If takes the full-deployment branch.
func parse(t *testing.T) *cloudformation.Template {
	t.Helper()
	raw, err := os.ReadFile("template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var params map[string]any
	ref := func(_ string, in any, tmpl any) any {
		name, _ := in.(string)
		if params == nil {
			if m, ok := tmpl.(map[string]any); ok {
				params, _ = m["Parameters"].(map[string]any)
			}
		}
		if p, ok := params[name].(map[string]any); ok {
			if def, ok := p["Default"]; ok {
				return def
			}
			if typ, _ := p["Type"].(string); strings.HasPrefix(typ, "List<") {
				return []any{"ref:" + name}
			}
		}
		return "ref:" + name
	}
	getAtt := func(_ string, in any, _ any) any {
		switch x := in.(type) {
		case string:
			return "getatt:" + x
		case []any:
			parts := make([]string, len(x))
			for i, p := range x {
				parts[i] = fmt.Sprint(p)
			}
			return "getatt:" + strings.Join(parts, ".")
		}
		return nil
	}
	sel := func(_ string, in any, _ any) any { return fmt.Sprintf("select:%v", in) }
	sub := func(_ string, in any, _ any) any { return fmt.Sprintf("sub:%v", in) }
	fnIf := func(_ string, in any, _ any) any {
		if x, ok := in.([]any); ok && len(x) == 3 {
			return x[1]
		}
		return nil
	}
	tmpl, err := goformation.ParseYAMLWithOptions(raw, &intrinsics.ProcessorOptions{
		IntrinsicHandlerOverrides: map[string]intrinsics.IntrinsicHandler{
			"Ref": ref, "Fn::GetAtt": getAtt, "Fn::Select": sel, "Fn::Sub": sub, "Fn::If": fnIf,
		},
	})
	if err != nil {
		t.Fatalf("goformation cannot parse template.yaml: %v", err)
	}
	return tmpl
}

func functionID(g wire.Group) string { return strings.ToUpper(g.Name[:1]) + g.Name[1:] + "Function" }

// actions lists the IAM actions the function's inline policies allow.
func actions(t *testing.T, f *serverless.Function) []string {
	t.Helper()
	if f.Policies == nil || f.Policies.IAMPolicyDocumentArray == nil {
		t.Fatalf("policies are not a list of IAM documents: %+v", f.Policies)
	}
	var out []string
	for _, doc := range *f.Policies.IAMPolicyDocumentArray {
		for _, st := range doc.Statement {
			m, _ := st.(map[string]any)
			switch a := m["Action"].(type) {
			case string:
				out = append(out, a)
			case []any:
				for _, x := range a {
					out = append(out, fmt.Sprint(x))
				}
			}
			if m["Resource"] != "getatt:SiteFileSystem.Arn" {
				t.Errorf("policy resource = %v, want the site file system", m["Resource"])
			}
		}
	}
	slices.Sort(out)
	return out
}

// routes lists "ANY /path" keys of the function's HttpApi events; "$default" for the default.
func routes(t *testing.T, name string, f *serverless.Function) []string {
	t.Helper()
	var out []string
	for ev, src := range f.Events {
		if src.Type != "HttpApi" {
			t.Errorf("%s event %s has type %s, want HttpApi", name, ev, src.Type)
			continue
		}
		var api, method, path string
		switch p := src.Properties; {
		case p != nil && p.HttpApiEvent != nil:
			api, method, path = str(p.HttpApiEvent.ApiId), str(p.HttpApiEvent.Method), str(p.HttpApiEvent.Path)
		case p != nil && p.ApiEvent != nil: // goformation tries the REST event shape first
			api, method, path = str(p.ApiEvent.RestApiId), p.ApiEvent.Method, p.ApiEvent.Path
		default:
			t.Errorf("%s event %s: no properties", name, ev)
			continue
		}
		if api != "ref:HttpApi" {
			t.Errorf("%s event %s: ApiId %q, want ref:HttpApi", name, ev, api)
		}
		if path == "" && method == "" {
			out = append(out, "$default")
			continue
		}
		out = append(out, strings.ToUpper(method)+" "+path)
	}
	slices.Sort(out)
	return out
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// The tests that parse are not parallel: goformation registers its YAML tags in package state
// on every parse, which races.

func TestTemplateMatchesGroups(t *testing.T) {
	tmpl := parse(t)
	fns := tmpl.GetAllServerlessFunctionResources()
	all := groups.All()
	if len(fns) != len(all) {
		var names []string
		for n := range fns {
			names = append(names, n)
		}
		t.Errorf("template has functions %v for %d groups", names, len(all))
	}
	logs := tmpl.GetAllLogsLogGroupResources()
	for _, g := range all {
		id := functionID(g)
		t.Run(g.Name, func(t *testing.T) {
			f, ok := fns[id]
			if !ok {
				t.Fatalf("no function %s (run go generate ./runtime/lambda)", id)
			}
			if f.CodeUri == nil || str(f.CodeUri.String) != "../dist/lambda/"+g.Name+".zip" {
				t.Errorf("CodeUri = %+v, want ../dist/lambda/%s.zip (make lambda)", f.CodeUri, g.Name)
			}
			if str(f.Runtime) != "provided.al2023" || str(f.Handler) != "bootstrap" {
				t.Errorf("runtime %q handler %q, want provided.al2023 and bootstrap", str(f.Runtime), str(f.Handler))
			}
			if !slices.Equal(f.Architectures, []string{"arm64"}) {
				t.Errorf("architectures = %v, want the Architecture parameter (default arm64)", f.Architectures)
			}
			if len(f.FileSystemConfigs) != 1 || str(f.FileSystemConfigs[0].LocalMountPath) != "/mnt/site" ||
				str(f.FileSystemConfigs[0].Arn) != "getatt:SiteAccessPoint.Arn" {
				t.Errorf("file system = %+v, want the access point at /mnt/site", f.FileSystemConfigs)
			}
			if f.VpcConfig == nil || !slices.Equal(f.VpcConfig.SubnetIds, []string{"ref:SubnetIds"}) {
				t.Errorf("VpcConfig = %+v, want the SubnetIds parameter", f.VpcConfig)
			}
			if !slices.Contains(f.AWSCloudFormationDependsOn, "MountTargetA") || !slices.Contains(f.AWSCloudFormationDependsOn, "MountTargetB") {
				t.Errorf("DependsOn = %v, want both mount targets (a function cannot mount EFS before them)", f.AWSCloudFormationDependsOn)
			}
			env := map[string]string{}
			if f.Environment != nil {
				env = f.Environment.Variables
			}
			for k, want := range map[string]string{"CMS_SITE_DIR": "/mnt/site", "CMS_WATCH": "generation", "NODE_ENV": "production", "CMS_CP_ENABLED": "true"} {
				if env[k] != want {
					t.Errorf("environment %s = %q, want %q", k, env[k], want)
				}
			}
			acts := actions(t, f)
			switch {
			case g.Writer:
				if f.ReservedConcurrentExecutions == nil || *f.ReservedConcurrentExecutions != 1 {
					t.Errorf("writer: ReservedConcurrentExecutions = %v, want 1 (single writer)", f.ReservedConcurrentExecutions)
				}
				if f.AWSCloudFormationCondition != "HasWriters" {
					t.Errorf("writer: Condition = %q, want HasWriters (absent when FrontendOnly)", f.AWSCloudFormationCondition)
				}
				if !slices.Equal(acts, []string{"elasticfilesystem:ClientMount", "elasticfilesystem:ClientWrite"}) {
					t.Errorf("writer: actions %v, want ClientMount and ClientWrite", acts)
				}
			case g.Appends:
				if f.ReservedConcurrentExecutions != nil || f.AWSCloudFormationCondition != "" {
					t.Errorf("appender: reserved %v condition %q, want it to scale out in every deployment", f.ReservedConcurrentExecutions, f.AWSCloudFormationCondition)
				}
				if !slices.Equal(acts, []string{"elasticfilesystem:ClientMount", "elasticfilesystem:ClientWrite"}) {
					t.Errorf("appender: actions %v, want ClientMount and ClientWrite", acts)
				}
			default:
				if f.ReservedConcurrentExecutions != nil || f.AWSCloudFormationCondition != "" {
					t.Errorf("frontend: reserved %v condition %q, want neither", f.ReservedConcurrentExecutions, f.AWSCloudFormationCondition)
				}
				if !slices.Equal(acts, []string{"elasticfilesystem:ClientMount"}) {
					t.Errorf("frontend: actions %v, want ClientMount only", acts)
				}
			}
			want := lambdagen.Routes(g.Prefixes(config.Default()))
			if g.Name == lambdagen.DefaultRouteGroup {
				want = append(want, "$default")
			}
			slices.Sort(want)
			if got := routes(t, g.Name, f); !slices.Equal(got, want) {
				t.Errorf("routes = %v, want %v (the group's prefixes)", got, want)
			}
			lg, ok := logs[strings.TrimSuffix(id, "Function")+"Logs"]
			if !ok {
				t.Fatalf("no log group for %s", id)
			}
			if str(lg.LogGroupName) != "sub:/aws/lambda/${"+id+"}" || lg.RetentionInDays == nil || *lg.RetentionInDays <= 0 {
				t.Errorf("log group = %q retention %v", str(lg.LogGroupName), lg.RetentionInDays)
			}
			if lg.AWSCloudFormationCondition != f.AWSCloudFormationCondition {
				t.Errorf("log group condition %q, function %q", lg.AWSCloudFormationCondition, f.AWSCloudFormationCondition)
			}
		})
	}
}

func TestTemplateStorageAndOutputs(t *testing.T) {
	tmpl := parse(t)
	if len(tmpl.GetAllEFSFileSystemResources()) != 1 {
		t.Fatalf("want exactly one EFS file system")
	}
	mts := tmpl.GetAllEFSMountTargetResources()
	var subnets []string
	for name, mt := range mts {
		if mt.FileSystemId != "ref:SiteFileSystem" || len(mt.SecurityGroups) == 0 {
			t.Errorf("mount target %s = %+v", name, mt)
		}
		subnets = append(subnets, mt.SubnetId)
	}
	slices.Sort(subnets)
	if !slices.Equal(subnets, []string{"select:[0 [ref:SubnetIds]]", "select:[1 [ref:SubnetIds]]"}) {
		t.Errorf("mount targets in %v, want one in each of the two given subnets", subnets)
	}
	aps := tmpl.GetAllEFSAccessPointResources()
	ap, ok := aps["SiteAccessPoint"]
	if !ok || ap.FileSystemId != "ref:SiteFileSystem" || ap.PosixUser == nil || ap.PosixUser.Uid != "1000" ||
		ap.RootDirectory == nil || str(ap.RootDirectory.Path) != "/site" {
		t.Errorf("access point = %+v", ap)
	}
	if len(tmpl.GetAllServerlessHttpApiResources()) != 1 {
		t.Errorf("want one HTTP API")
	}
	for _, p := range []string{"VpcId", "SubnetIds", "SecurityGroupId", "FrontendOnly"} {
		if _, ok := tmpl.Parameters[p]; !ok {
			t.Errorf("parameter %s missing", p)
		}
	}
	if _, ok := tmpl.Conditions["HasWriters"]; !ok {
		t.Errorf("condition HasWriters missing")
	}
	out, ok := tmpl.Outputs["ApiUrl"]
	if !ok || !strings.Contains(fmt.Sprint(out.Value), "execute-api") {
		t.Errorf("ApiUrl output = %+v", out)
	}
}

// TestTemplateGenerated checks template.yaml is what the generator writes for today's groups.
func TestTemplateGenerated(t *testing.T) {
	t.Parallel()
	want, err := lambdagen.Template(groups.All())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("infra/template.yaml is stale: run go generate ./runtime/lambda")
	}
}
