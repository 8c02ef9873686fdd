// The ovnk oracle: upstream's own zone controllers, run offline for one zone (node) of a topology
// planned by ovnk, and the Northbound they write dumped as JSON. This file is ovnk-pulumi's, not
// upstream's: `npm run oracle` copies it into go-controller/pkg/ovn/ (package ovn, beside
// ovn_test.go's FakeOVN) and runs `ovn.test -test.run '^TestOvnkOracle$'` with
// OVNK_ORACLE_INPUT (the input JSON) and OVNK_ORACLE_OUTPUT (where the dump goes).
//
// The sequence follows layer3_user_defined_network_controller_test.go "reconciles a new", with the
// differences an oracle needs: real node ids and join addresses (init() computes them), every NAD
// of a network handed to its controller before it starts (FakeOVN keeps only the first), each
// controller's own Start() (init, node handler, namespaces, services, pods, policies), and the
// network-connect controller of pkg/ovn/controller/networkconnect.
package ovn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	nettypes "github.com/k8snetworkplumbingwg/network-attachment-definition-client/pkg/apis/k8s.cni.cncf.io/v1"
	fakenadclient "github.com/k8snetworkplumbingwg/network-attachment-definition-client/pkg/client/clientset/versioned/fake"
	"github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"

	anpfake "sigs.k8s.io/network-policy-api/pkg/client/clientset/versioned/fake"

	fakeipamclaimclient "github.com/k8snetworkplumbingwg/ipamclaims/pkg/crd/ipamclaims/v1alpha1/apis/clientset/versioned/fake"
	mnpfake "github.com/k8snetworkplumbingwg/multi-networkpolicy/pkg/client/clientset/versioned/fake"
	ocpnetworkfake "github.com/openshift/client-go/network/clientset/versioned/fake"

	"github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/clustermanager/userdefinednetwork/template"
	"github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/config"
	adminpolicybasedroutefake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/adminpolicybasedroute/v1/apis/clientset/versioned/fake"
	networkconnectv1 "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/clusternetworkconnect/v1"
	networkconnectfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/clusternetworkconnect/v1/apis/clientset/versioned/fake"
	egressfirewallfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/egressfirewall/v1/apis/clientset/versioned/fake"
	egressipfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/egressip/v1/apis/clientset/versioned/fake"
	egressqosfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/egressqos/v1/apis/clientset/versioned/fake"
	egressservicefake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/egressservice/v1/apis/clientset/versioned/fake"
	rafake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/routeadvertisements/v1/apis/clientset/versioned/fake"
	uplinkv1alpha1 "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/uplink/v1alpha1"
	uplinkfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/uplink/v1alpha1/apis/clientset/versioned/fake"
	udnv1 "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/userdefinednetwork/v1"
	udnclientfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/userdefinednetwork/v1/apis/clientset/versioned/fake"
	vtepfake "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/crd/vtep/v1/apis/clientset/versioned/fake"
	"github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/nbdb"
	addressset "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/ovn/address_set"
	"github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/ovn/controller/networkconnect"
	"github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/ovn/controller/udnenabledsvc"
	ovntest "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/testing"
	libovsdbtest "github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/testing/libovsdb"
	"github.com/ovn-kubernetes/ovn-kubernetes/go-controller/pkg/util"
)

// ovnkOracleSettings are the cluster's configuration (what ovnkube reads from its flags).
type ovnkOracleSettings struct {
	GatewayMode        string          `json:"gatewayMode"`
	IPv4               bool            `json:"ipv4"`
	IPv6               bool            `json:"ipv6"`
	ClusterSubnets     string          `json:"clusterSubnets"`
	ServiceCIDRs       []string        `json:"serviceCIDRs"`
	MasqueradeSubnets  []string        `json:"masqueradeSubnets"`
	EphemeralPortRange string          `json:"ephemeralPortRange"`
	MTU                int             `json:"mtu"`
	Features           map[string]bool `json:"features"`
	QuietMillis        int             `json:"quietMillis"`
	TimeoutMillis      int             `json:"timeoutMillis"`
	// Layer2UsesTransitRouter false: the zone's node is not yet upgraded to the transit-router
	// topology (what controller_manager.go setTopologyType decides from the node's
	// k8s.ovn.org/layer2-topology-version annotation); absent: true, as PrepareTestConfig sets it.
	Layer2UsesTransitRouter *bool `json:"layer2UsesTransitRouter,omitempty"`
}

// ovnkOracleNetwork is a CUDN or UDN and the namespaces it has NADs in, with their annotations,
// and the VRFs its pod network is advertised in by node (what the network manager derives from
// accepted RouteAdvertisements: networkmanager/network_controller.go).
type ovnkOracleNetwork struct {
	Kind                     string              `json:"kind"`
	Object                   json.RawMessage     `json:"object"`
	PodNetworkAdvertisedVRFs map[string][]string `json:"podNetworkAdvertisedVRFs"`
	NADs                     []struct {
		Namespace   string            `json:"namespace"`
		Annotations map[string]string `json:"annotations"`
	} `json:"nads"`
}

type ovnkOracleInput struct {
	// Mode "clustermanager" runs upstream's cluster manager (ovnk_oracle_clustermanager_test.go)
	// instead of the zone's controllers.
	Mode           string                                   `json:"mode"`
	Zone           string                                   `json:"zone"`
	Settings       ovnkOracleSettings                       `json:"settings"`
	Nodes          []corev1.Node                            `json:"nodes"`
	Namespaces     []corev1.Namespace                       `json:"namespaces"`
	Pods           []corev1.Pod                             `json:"pods"`
	Services       []corev1.Service                         `json:"services"`
	EndpointSlices []discoveryv1.EndpointSlice              `json:"endpointSlices"`
	Networks       []ovnkOracleNetwork                      `json:"networks"`
	Connects       []networkconnectv1.ClusterNetworkConnect `json:"connects"`
	Uplinks        []uplinkv1alpha1.Uplink                  `json:"uplinks"`
	UplinkStates   []uplinkv1alpha1.UplinkState             `json:"uplinkStates"`
}

type ovnkOracleOutput struct {
	Zone   string                              `json:"zone"`
	Tables map[string][]map[string]interface{} `json:"tables"`
	Errors []string                            `json:"errors"`
	// ControllerErrors are the distinct messages the controllers logged at error level (retries
	// included): what explains rows upstream did not write.
	ControllerErrors []string `json:"controllerErrors"`
	Millis           int64    `json:"millis"`
	// Annotations the cluster manager wrote (mode "clustermanager").
	Annotations *ovnkOracleAnnotations `json:"annotations,omitempty"`
}

// ovnkOracleErrorLog keeps the distinct error-level log messages, without klog's header.
type ovnkOracleErrorLog struct {
	mu   sync.Mutex
	seen map[string]bool
	list []string
}

func (l *ovnkOracleErrorLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range strings.Split(string(p), "\n") {
		if i := strings.Index(line, "] "); i >= 0 {
			line = line[i+2:]
		}
		if line == "" || l.seen[line] || len(l.list) >= 50 {
			continue
		}
		l.seen[line] = true
		l.list = append(l.list, line)
	}
	return len(p), nil
}

func (l *ovnkOracleErrorLog) messages() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string{}, l.list...)
}

func TestOvnkOracle(t *testing.T) {
	inputPath, outputPath := os.Getenv("OVNK_ORACLE_INPUT"), os.Getenv("OVNK_ORACLE_OUTPUT")
	if inputPath == "" || outputPath == "" {
		t.Skip("OVNK_ORACLE_INPUT and OVNK_ORACLE_OUTPUT are not set")
	}
	started := time.Now()
	out := ovnkOracleOutput{Errors: []string{}}
	errorLog := &ovnkOracleErrorLog{seen: map[string]bool{}}
	// klog writes a line to the output of its severity and of every lower one: all four are set.
	klog.LogToStderr(false)
	klog.SetOutputBySeverity("INFO", io.Writer(os.Stderr))
	klog.SetOutputBySeverity("WARNING", io.Discard)
	klog.SetOutputBySeverity("ERROR", errorLog)
	klog.SetOutputBySeverity("FATAL", errorLog)
	// As ovn_suite_test.go TestClusterNode: fake clientsets do not support WatchList semantics.
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{"WatchListClient": false}); err != nil {
		t.Fatalf("disabling the WatchListClient feature gate: %v", err)
	}
	// Assertion failures inside upstream's helpers are recorded, not fatal: the dump says what happened.
	gomega.RegisterFailHandler(func(message string, _ ...int) {
		out.Errors = append(out.Errors, message)
		panic(message)
	})
	input := ovnkOracleInput{}
	raw, err := os.ReadFile(inputPath)
	if err == nil {
		err = json.Unmarshal(raw, &input)
	}
	if err != nil {
		t.Fatalf("reading %s: %v", inputPath, err)
	}
	out.Zone = input.Zone
	if input.Mode == "clustermanager" {
		annotations, err := ovnkOracleClusterManager(&input, errorLog)
		if err != nil {
			out.Errors = append(out.Errors, err.Error())
		}
		out.Annotations = annotations
		ovnkOracleWrite(t, outputPath, &out, errorLog, started)
	}
	fakeOvn, runErr := ovnkOracleRun(&input, &out)
	if runErr != nil {
		out.Errors = append(out.Errors, runErr.Error())
	}
	if fakeOvn != nil && fakeOvn.nbClient != nil {
		ovnkOracleQuiet(fakeOvn, input.Settings)
		out.Tables = ovnkOracleDump(fakeOvn)
	}
	ovnkOracleWrite(t, outputPath, &out, errorLog, started)
}

// ovnkOracleWrite writes the output and exits: FakeOVN.shutdown() can hang after the dump is
// complete, and the dump is the result.
func ovnkOracleWrite(t *testing.T, outputPath string, out *ovnkOracleOutput, errorLog *ovnkOracleErrorLog, started time.Time) {
	out.ControllerErrors = errorLog.messages()
	out.Millis = time.Since(started).Milliseconds()
	written, _ := json.MarshalIndent(out, "", " ")
	if err := os.WriteFile(outputPath, written, 0o644); err != nil {
		t.Fatalf("writing %s: %v", outputPath, err)
	}
	os.Exit(0)
}

func ovnkOracleConfigure(s ovnkOracleSettings) error {
	if err := config.PrepareTestConfig(); err != nil {
		return err
	}
	// PrepareTestConfig leaves the defaults of config.go (AdvertisedUDNIsolationMode strict, among
	// others): switch on what user-defined networks need, keep the rest.
	config.OVNKubernetesFeature.EnableNetworkSegmentation = true
	config.OVNKubernetesFeature.EnableMultiNetwork = true
	config.OVNKubernetesFeature.EnableNetworkConnect = true
	if config.OVNKubernetesFeature.AdvertisedUDNIsolationMode == "" {
		config.OVNKubernetesFeature.AdvertisedUDNIsolationMode = config.AdvertisedUDNIsolationModeStrict
	}
	features := reflect.ValueOf(&config.OVNKubernetesFeature).Elem()
	for name, on := range s.Features {
		field := features.FieldByName(name)
		if !field.IsValid() || field.Kind() != reflect.Bool {
			return fmt.Errorf("settings.features: %q is not a boolean of config.OVNKubernetesFeatureConfig", name)
		}
		field.SetBool(on)
	}
	if s.Layer2UsesTransitRouter != nil {
		config.Layer2UsesTransitRouter = *s.Layer2UsesTransitRouter
	}
	config.Gateway.Mode = config.GatewayMode(s.GatewayMode)
	config.Gateway.EphemeralPortRange = s.EphemeralPortRange
	config.IPv4Mode, config.IPv6Mode = s.IPv4, s.IPv6
	if s.MTU > 0 {
		config.Default.MTU = s.MTU
	}
	var err error
	if config.Default.ClusterSubnets, err = config.ParseClusterSubnetEntries(s.ClusterSubnets); err != nil {
		return fmt.Errorf("settings.clusterSubnets: %w", err)
	}
	config.Kubernetes.ServiceCIDRs = nil
	for _, cidr := range s.ServiceCIDRs {
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			return fmt.Errorf("settings.serviceCIDRs: %w", err)
		}
		config.Kubernetes.ServiceCIDRs = append(config.Kubernetes.ServiceCIDRs, n)
	}
	for _, cidr := range s.MasqueradeSubnets {
		ip, _, err := net.ParseCIDR(cidr)
		if err != nil {
			return fmt.Errorf("settings.masqueradeSubnets: %w", err)
		}
		if ip.To4() != nil {
			config.Gateway.V4MasqueradeSubnet = cidr
			err = config.AllocateV4MasqueradeIPs(ip, &config.Gateway.MasqueradeIPs)
		} else {
			config.Gateway.V6MasqueradeSubnet = cidr
			err = config.AllocateV6MasqueradeIPs(ip, &config.Gateway.MasqueradeIPs)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// ovnkOracleNADs renders each network's NADs with upstream's CUDN/UDN template, annotated as the
// cluster manager annotates them; by network name.
func ovnkOracleNADs(networks []ovnkOracleNetwork) (map[string][]nettypes.NetworkAttachmentDefinition, []string, map[string]map[string][]string, error) {
	byNetwork := map[string][]nettypes.NetworkAttachmentDefinition{}
	advertised := map[string]map[string][]string{}
	order := []string{}
	for i, n := range networks {
		var obj interface{}
		switch n.Kind {
		case "ClusterUserDefinedNetwork":
			obj = &udnv1.ClusterUserDefinedNetwork{}
		case "UserDefinedNetwork":
			obj = &udnv1.UserDefinedNetwork{}
		default:
			return nil, nil, nil, fmt.Errorf("networks[%d].kind: %q is not ClusterUserDefinedNetwork or UserDefinedNetwork", i, n.Kind)
		}
		if err := json.Unmarshal(n.Object, obj); err != nil {
			return nil, nil, nil, fmt.Errorf("networks[%d].object: %w", i, err)
		}
		for _, target := range n.NADs {
			var nad *nettypes.NetworkAttachmentDefinition
			var err error
			switch o := obj.(type) {
			case *udnv1.ClusterUserDefinedNetwork:
				nad, err = template.RenderNetAttachDefManifest(o, target.Namespace)
			case *udnv1.UserDefinedNetwork:
				nad, err = template.RenderNetAttachDefManifest(o, target.Namespace)
			}
			if err != nil {
				return nil, nil, nil, fmt.Errorf("networks[%d]: rendering the NAD in %s: %w", i, target.Namespace, err)
			}
			nad.Namespace = target.Namespace
			for k, v := range target.Annotations {
				if nad.Annotations == nil {
					nad.Annotations = map[string]string{}
				}
				nad.Annotations[k] = v
			}
			info, err := util.ParseNADInfo(nad)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("networks[%d]: the NAD in %s: %w", i, target.Namespace, err)
			}
			name := info.GetNetworkName()
			if _, seen := byNetwork[name]; !seen {
				order = append(order, name)
			}
			byNetwork[name] = append(byNetwork[name], *nad)
			if len(n.PodNetworkAdvertisedVRFs) > 0 {
				advertised[name] = n.PodNetworkAdvertisedVRFs
			}
		}
	}
	return byNetwork, order, advertised, nil
}

func ovnkOracleRun(input *ovnkOracleInput, out *ovnkOracleOutput) (fakeOvn *FakeOVN, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	if err := ovnkOracleConfigure(input.Settings); err != nil {
		return nil, err
	}
	nadsByNetwork, order, advertised, err := ovnkOracleNADs(input.Networks)
	if err != nil {
		return nil, err
	}
	var v1Objects []runtime.Object
	for i := range input.Nodes {
		v1Objects = append(v1Objects, &input.Nodes[i])
	}
	for i := range input.Namespaces {
		v1Objects = append(v1Objects, &input.Namespaces[i])
	}
	for i := range input.Pods {
		v1Objects = append(v1Objects, &input.Pods[i])
	}
	for i := range input.Services {
		v1Objects = append(v1Objects, &input.Services[i])
	}
	for i := range input.EndpointSlices {
		v1Objects = append(v1Objects, &input.EndpointSlices[i])
	}
	nadClient := fakenadclient.NewSimpleClientset()
	firstNADs := []nettypes.NetworkAttachmentDefinition{}
	for _, name := range order {
		for i := range nadsByNetwork[name] {
			nad := nadsByNetwork[name][i]
			if err := nadClient.Tracker().Create(schema.GroupVersionResource(nadGVR()), &nad, nad.Namespace); err != nil {
				return nil, err
			}
		}
		firstNADs = append(firstNADs, nadsByNetwork[name][0])
	}
	var uplinkObjects []runtime.Object
	for i := range input.Uplinks {
		uplinkObjects = append(uplinkObjects, &input.Uplinks[i])
	}
	for i := range input.UplinkStates {
		uplinkObjects = append(uplinkObjects, &input.UplinkStates[i])
	}
	cncClient := networkconnectfake.NewSimpleClientset()
	for i := range input.Connects {
		if _, err := cncClient.K8sV1().ClusterNetworkConnects().Create(context.Background(), &input.Connects[i], metav1.CreateOptions{}); err != nil {
			return nil, err
		}
	}

	fakeOvn = NewFakeOVN(false, input.Zone)
	fakeOvn.dbSetup = libovsdbtest.TestSetup{NBData: []libovsdbtest.TestData{&nbdb.LogicalSwitch{Name: input.Zone}}}
	fexec := ovntest.NewFakeExec()
	for range order {
		fexec.AddFakeCmdsNoOutputNoError([]string{"ovn-nbctl --timeout=15 --columns=_uuid list Load_Balancer_Group"})
	}
	if err := util.SetExec(fexec); err != nil {
		return nil, err
	}
	fakeOvn.fakeClient = &util.OVNKubeControllerClientset{
		KubeClient:                fake.NewSimpleClientset(v1Objects...),
		ANPClient:                 anpfake.NewSimpleClientset(),
		EgressIPClient:            egressipfake.NewSimpleClientset(),
		EgressFirewallClient:      egressfirewallfake.NewSimpleClientset(),
		OCPNetworkClient:          ocpnetworkfake.NewSimpleClientset(),
		EgressQoSClient:           egressqosfake.NewSimpleClientset(),
		MultiNetworkPolicyClient:  mnpfake.NewSimpleClientset(),
		EgressServiceClient:       egressservicefake.NewSimpleClientset(),
		AdminPolicyRouteClient:    adminpolicybasedroutefake.NewSimpleClientset(),
		IPAMClaimsClient:          fakeipamclaimclient.NewSimpleClientset(),
		NetworkAttchDefClient:     nadClient,
		UserDefinedNetworkClient:  udnclientfake.NewSimpleClientset(),
		UplinkClient:              uplinkfake.NewSimpleClientset(uplinkObjects...),
		VTEPClient:                vtepfake.NewSimpleClientset(),
		NetworkConnectClient:      cncClient,
		RouteAdvertisementsClient: rafake.NewSimpleClientset(),
	}
	fakeOvn.init(firstNADs)

	// Every NAD of a network (a CUDN selecting several namespaces has one per namespace).
	for _, name := range order {
		info, ok := fakeOvn.userDefinedNetworkControllers[name]
		if !ok {
			return fakeOvn, fmt.Errorf("network %s: no controller was made", name)
		}
		nadNames := []string{}
		for _, nad := range nadsByNetwork[name] {
			nadNames = append(nadNames, util.GetNADName(nad.Namespace, nad.Name))
		}
		parsed, err := util.ParseNADInfo(&nadsByNetwork[name][0])
		if err != nil {
			return fakeOvn, err
		}
		all := util.NewMutableNetInfo(parsed)
		all.SetNADs(nadNames...)
		if vrfs, ok := advertised[name]; ok {
			all.SetPodNetworkAdvertisedVRFs(vrfs)
		}
		if err := util.ReconcileNetInfo(info.bnc.ReconcilableNetInfo, all); err != nil {
			return fakeOvn, fmt.Errorf("network %s: handing it its NADs: %w", name, err)
		}
	}

	// What the controller manager sets up before the networks start (controllermanager/
	// controller_manager.go): the UDN-enabled services address set, and the advertised-network
	// isolation rows.
	if util.IsNetworkSegmentationSupportEnabled() {
		svc := udnenabledsvc.NewController(fakeOvn.nbClient, addressset.NewOvnAddressSetFactory(fakeOvn.nbClient, config.IPv4Mode, config.IPv6Mode),
			fakeOvn.watcher.ServiceCoreInformer(), config.Default.UDNAllowedDefaultServices)
		go func() {
			if err := svc.Run(fakeOvn.stopChan); err != nil {
				out.Errors = append(out.Errors, fmt.Sprintf("UDN enabled service controller: %v", err))
			}
		}()
		deadline := time.Now().Add(10 * time.Second)
		for !svc.IsAddressSetAvailable() && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if util.IsRouteAdvertisementsEnabled() {
		if err := ConfigureAdvertisedNetworkIsolation(fakeOvn.nbClient); err != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("advertised network isolation: %v", err))
		}
	}
	ctx := context.Background()
	for _, name := range order {
		if c, ok := fakeOvn.fullL3UDNControllers[name]; ok {
			if err := c.Start(ctx); err != nil {
				out.Errors = append(out.Errors, fmt.Sprintf("network %s: Start: %v", name, err))
			}
		}
		if c, ok := fakeOvn.fullL2UDNControllers[name]; ok {
			if err := c.Start(ctx); err != nil {
				out.Errors = append(out.Errors, fmt.Sprintf("network %s: Start: %v", name, err))
			}
		}
		if c, ok := fakeOvn.fullLocalnetUDNControllers[name]; ok {
			if err := c.Start(ctx); err != nil {
				out.Errors = append(out.Errors, fmt.Sprintf("network %s: Start: %v", name, err))
			}
		}
	}
	// The services controller the UDN controllers registered their networks with (ovn.go StartServiceController).
	if len(input.Services) > 0 {
		if err := fakeOvn.controller.StartServiceController(fakeOvn.wg, false); err != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("services controller: %v", err))
		}
	}
	if len(input.Connects) > 0 {
		connect := networkconnect.NewController(input.Zone, fakeOvn.nbClient, fakeOvn.watcher, fakeOvn.networkManager.Interface())
		if err := connect.Start(); err != nil {
			out.Errors = append(out.Errors, fmt.Sprintf("network connect controller: Start: %v", err))
		}
	}
	return fakeOvn, nil
}

// ovnkOracleQuiet waits until the Northbound has not changed for QuietMillis (or TimeoutMillis passed).
func ovnkOracleQuiet(fakeOvn *FakeOVN, s ovnkOracleSettings) {
	quiet, timeout := time.Duration(s.QuietMillis)*time.Millisecond, time.Duration(s.TimeoutMillis)*time.Millisecond
	if quiet == 0 {
		quiet = 3 * time.Second
	}
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	deadline := time.Now().Add(timeout)
	last, since := "", time.Now()
	for time.Now().Before(deadline) {
		now, _ := json.Marshal(ovnkOracleDump(fakeOvn))
		if string(now) != last {
			last, since = string(now), time.Now()
		} else if time.Since(since) >= quiet {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var ovnkOracleDumpLock sync.Mutex

// ovnkOracleDump is every Northbound table of the client's cache: each row's columns by OVSDB name
// (references as UUIDs, `_uuid` included), rows sorted by UUID.
func ovnkOracleDump(fakeOvn *FakeOVN) map[string][]map[string]interface{} {
	ovnkOracleDumpLock.Lock()
	defer ovnkOracleDumpLock.Unlock()
	tables := map[string][]map[string]interface{}{}
	c := fakeOvn.nbClient.Cache()
	for _, table := range c.Tables() {
		rows := []map[string]interface{}{}
		for _, m := range c.Table(table).Rows() {
			rows = append(rows, ovnkOracleColumns(m))
		}
		if len(rows) == 0 {
			continue
		}
		sort.Slice(rows, func(i, j int) bool { return fmt.Sprint(rows[i]["_uuid"]) < fmt.Sprint(rows[j]["_uuid"]) })
		tables[table] = rows
	}
	return tables
}

func ovnkOracleColumns(m interface{}) map[string]interface{} {
	v := reflect.ValueOf(m)
	for v.Kind() == reflect.Ptr {
		v = v.Elem()
	}
	row := map[string]interface{}{}
	for i := 0; i < v.NumField(); i++ {
		tag := v.Type().Field(i).Tag.Get("ovsdb")
		if tag == "" {
			continue
		}
		f := v.Field(i)
		if f.Kind() == reflect.Ptr {
			if f.IsNil() {
				continue
			}
			f = f.Elem()
		}
		row[tag] = f.Interface()
	}
	return row
}
