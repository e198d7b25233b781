// hupf view (legacy ONOS GUI): the sessions table comes from the table builder ('hupfSession' tag); after
// each table response the view asks for the summary (offload metrics, switch tables, devices, events).
(function () {
    'use strict';

    var summaryReq = 'hupfSummaryRequest',
        summaryResp = 'hupfSummaryResponse';

    angular.module('ovHupf', [])
        .controller('OvHupfCtrl', ['$scope', 'TableBuilderService', 'WebSocketService',
            function ($scope, tbs, wss) {
                var handlers = {};

                $scope.summary = {occupancy: [], devices: [], events: []};
                handlers[summaryResp] = function (data) {
                    $scope.summary = data;
                    $scope.$apply();
                };
                wss.bindHandlers(handlers);

                tbs.buildTable({
                    scope: $scope,
                    tag: 'hupfSession',
                    respCb: function () {
                        wss.sendEvent(summaryReq, {});
                    }
                });

                $scope.$on('$destroy', function () {
                    wss.unbindHandlers(handlers);
                });
            }]);
}());
